import BrokerModel
import BrokerPolicy
import BrokerSupport
import Foundation
import BrokerServer
import CommandLineSupport

/// The `healthbrokerd` command line: its flags and how they become a `BrokerConfiguration`.
enum DaemonCommand {
    /// The command's flags, defaults and help.
    static let spec = CommandSpec(
        "healthbrokerd",
        summary: "The HealthBroker daemon: serves apps on the app socket and healthctl on the admin socket.",
        discussion: """
            Logs structured lines to standard error. SIGINT or SIGTERM stop it cleanly: calls in \
            flight get the grace period, SQLite is closed and the sockets are removed. SIGHUP reads \
            the --consent-policy file again (an invalid one is refused and logged; the old policy stays). \
            Under systemd it serves the sockets passed by socket activation (LISTEN_FDS; names app and \
            admin) instead of binding its paths, and leaves their files to systemd; it reports READY=1, \
            RELOADING=1 and STOPPING=1 to NOTIFY_SOCKET (Type=notify); and when standard error is the \
            journal (JOURNAL_STREAM) each line carries its syslog priority instead of a timestamp.
            --restore FILE (with the broker stopped) puts a backup made by 'healthctl backup' in place as \
            the --data-dir database and exits 0 without serving: the file is checked first (a sound SQLite \
            database with the broker's tables and a schema version this build can migrate), and the \
            current database is renamed to broker.sqlite3.before-restore-TIMESTAMP, never deleted. Before \
            migrating an older schema at start, the broker backs the database up into DIR/backups/ \
            (before-vN-TIMESTAMP.sqlite) and logs the migration.
            """,
        options: [
            .option("socket", value: "PATH", help: "The app socket (mode 0666; identity is the app token).", default: DefaultPaths.appSocket, environment: "HEALTHBROKER_APP_SOCKET"),
            .option("admin-socket", value: "PATH", help: "The admin socket (mode 0600; peer uid checked).", default: DefaultPaths.adminSocket, environment: "HEALTHBROKER_ADMIN_SOCKET"),
            .option("data-dir", value: "DIR", help: "Where the SQLite database lives (created 0700).", default: DefaultPaths.dataDirectory, environment: "HEALTHBROKER_DATA_DIR"),
            .option("max-frame-bytes", value: "N", help: "The largest frame accepted.", default: "4194304"),
            .option("max-calls-in-flight", value: "N", help: "The most calls one connection may have in flight.", default: "4096"),
            .option("output-high-water", value: "BYTES", help: "Queued reply bytes at which a connection stops being read.", default: "1048576"),
            .option("shutdown-grace-ms", value: "MS", help: "How long calls in flight may finish after SIGTERM.", default: "5000"),
            .option("admin-uid", value: "UID", help: "A uid besides the daemon's own allowed on the admin socket."),
            .option("earliest-permitted-date", value: "DATE", help: "The store-wide floor: YYYY-MM-DD or an ISO-8601 UTC instant.", default: "2000-01-01"),
            .option("consent-policy", value: "FILE", help: "A JSON consent policy that decides prompts before any agent sees them (format: docs/CONSENT-POLICY.md; types named as 'healthctl types' lists them); SIGHUP reads it again.", environment: "HEALTHBROKER_CONSENT_POLICY"),
            .option("stall-timeout-ms", value: "MS", help: "Close a connection whose peer leaves replies unread this long.", default: "30000"),
            .option("hello-timeout-ms", value: "MS", help: "Close an app connection that has not said Hello this long after connecting.", default: "10000"),
            .option("frame-timeout-ms", value: "MS", help: "Close a connection whose frame has not arrived whole this long after its first byte.", default: "10000"),
            .option("max-connections", value: "N", help: "Open app-socket connections allowed in all.", default: "16384"),
            .option("max-connections-per-uid", value: "N", help: "Open app-socket connections allowed per peer uid.", default: "8192"),
            .option("max-admin-connections", value: "N", help: "Open admin-socket connections allowed (healthctl, consent agents); apart from the app limits, so apps cannot lock the person out.", default: "64"),
            .option("max-queued-authorization-requests", value: "N", help: "Authorization requests one app may have waiting.", default: "16"),
            .option("max-db-pages", value: "N", help: "Cap the database at N pages (SQLite max_page_count; 16 KiB each in a store made by this version; for testing a full disk). 0: no cap.", default: "0"),
            .option("tombstone-retention-days", value: "DAYS", help: "How long deletions are remembered for anchored queries.", default: "30"),
            .flag("synchronous-full", help: "Acknowledge a write only once it would survive power loss, as SQLite synchronous=FULL would (the WAL is fsynced on a thread of its own before results go out)."),
            .option("restore", value: "FILE", help: "Put the backup FILE in place as the database (the broker must be stopped), then exit."),
            .option("log-level", value: "LEVEL", help: "debug, info, warning or error.", default: "info", environment: "HEALTHBROKER_LOG_LEVEL"),
        ],
        version: BrokerVersion.broker
    )

    /// Builds the configuration from parsed flags.
    static func configuration(from command: ParsedCommand) throws(ArgumentError) -> BrokerConfiguration {
        var configuration = BrokerConfiguration()
        configuration.appSocketPath = try command.requiredString("socket")
        configuration.adminSocketPath = try command.requiredString("admin-socket")
        configuration.dataDirectory = try command.requiredString("data-dir")
        configuration.maxFrameBytes = try command.int("max-frame-bytes", in: 64...(256 * 1024 * 1024)) ?? configuration.maxFrameBytes
        configuration.maxCallsInFlight = try command.int("max-calls-in-flight", in: 1...1_000_000) ?? configuration.maxCallsInFlight
        configuration.outputHighWater = try command.int("output-high-water", in: 4_096...(1 << 30)) ?? configuration.outputHighWater
        if let grace = try command.int64("shutdown-grace-ms", in: 0...600_000) {
            configuration.shutdownGraceMicros = grace * 1_000
        }
        configuration.adminUID = try command.uint32("admin-uid")
        configuration.logLevel = try command.value("log-level", expected: "debug, info, warning or error") { Logger.Level(name: $0) } ?? .info
        configuration.earliestPermittedMicros = try command.value("earliest-permitted-date", expected: "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ") { ISODate.parse($0) } ?? configuration.earliestPermittedMicros
        if let days = try command.int64("tombstone-retention-days", in: 0...36_500) {
            configuration.tombstoneRetentionMicros = days * 86_400 * Microseconds.perSecond
        }
        configuration.durableAgainstPowerLoss = command.flag("synchronous-full")
        if let stall = try command.int64("stall-timeout-ms", in: 1...86_400_000) { configuration.stallTimeoutMicros = stall * 1_000 }
        if let hello = try command.int64("hello-timeout-ms", in: 1...86_400_000) { configuration.helloTimeoutMicros = hello * 1_000 }
        if let frame = try command.int64("frame-timeout-ms", in: 1...86_400_000) { configuration.frameTimeoutMicros = frame * 1_000 }
        configuration.maxConnections = try command.int("max-connections", in: 1...1_000_000) ?? configuration.maxConnections
        configuration.maxConnectionsPerUID = try command.int("max-connections-per-uid", in: 1...1_000_000) ?? configuration.maxConnectionsPerUID
        configuration.maxAdminConnections = try command.int("max-admin-connections", in: 1...1_000_000) ?? configuration.maxAdminConnections
        configuration.maxQueuedAuthorizationRequests = try command.int("max-queued-authorization-requests", in: 0...100_000) ?? configuration.maxQueuedAuthorizationRequests
        configuration.maxDatabasePages = try command.int("max-db-pages", in: 0...Int(Int32.max)) ?? 0
        if let path = command.string("consent-policy") {
            configuration.consentPolicy = try loadPolicy(path)
            configuration.consentPolicyPath = path
        }
        guard configuration.appSocketPath != configuration.adminSocketPath else {
            throw ArgumentError(.invalidValue, "--socket and --admin-socket must differ")
        }
        return configuration
    }

    /// Reads and parses a consent policy file as SIGHUP will; any problem is a usage error naming the file.
    static func loadPolicy(_ path: String) throws(ArgumentError) -> ConsentPolicy {
        do throws(BrokerError) {
            return try Broker.loadConsentPolicy(path)
        } catch {
            throw ArgumentError(.invalidValue, error.message)
        }
    }
}
