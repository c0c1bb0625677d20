import BrokerModel
import BrokerSupport
import CommandLineSupport

/// The `healthctl` command tree: global options, `apps …`, `status`, the authorization commands and the data tools.
enum HealthctlSpec {
    /// The program name used in help and in error messages.
    static let programName = "healthctl"

    /// The whole command line grammar.
    static let spec = CommandSpec(
        programName,
        summary: "Administer a running HealthBroker daemon over its admin socket.",
        discussion: """
            Registers apps, issues their tokens, shows the daemon's status, answers authorization \
            prompts as the person (consent), shows or revokes what each app was granted, imports, \
            exports and generates samples, and shows the access log. Type arguments take a HealthKit identifier or its short alias ('healthctl types' lists both). \
            The admin socket only admits the daemon's own user. Add --json for machine-readable output on standard output; \
            errors always go to standard error as 'healthctl: MESSAGE' with exit status 1 (64 for a \
            command line healthctl cannot accept).
            """,
        options: [
            .option(
                "admin-socket", value: "PATH", help: "The daemon's admin socket.",
                default: DefaultPaths.adminSocket, environment: "HEALTHBROKER_ADMIN_SOCKET"),
            .flag("json", help: "Print JSON (keys sorted; instants as ISO-8601 plus *_us microseconds)."),
            .flag("utc", help: "Write times in UTC instead of your time zone (TZ) in text output (JSON is always UTC)."),
        ],
        subcommands: [
            apps, status, consent, ui, grants, revoke, sources, characteristics, explain, types,
            importSamples, exportSamples, backup, accessLog, stats, demoData, call, describe,
        ],
        version: BrokerVersion.broker
    )

    /// `healthctl apps …`.
    static let apps = CommandSpec(
        "apps",
        summary: "Register, list and remove apps, and rotate their tokens.",
        subcommands: [add, list, remove, rotateToken]
    )

    /// `healthctl apps add APP_ID --name NAME …`.
    static let add = CommandSpec(
        "add",
        summary: "Register an app and print its token (shown only this once).",
        discussion: """
            An app with no read usage text may not ask to read health data, and one with no share \
            usage text may not ask to write it. To capture the token in a script:
              TOKEN=$(healthctl apps add APP_ID --name NAME --token-only)
            """,
        options: [
            .option("name", value: "NAME", help: "The display name shown in prompts and tables (required)."),
            .option("read-usage", value: "TEXT", help: "Why the app reads health data."),
            .option("share-usage", value: "TEXT", help: "Why the app writes health data."),
            .option("uid", value: "N", help: "Only accept the app's sessions from this peer uid."),
            tokenOnly,
        ],
        positionals: [PositionalSpec("APP_ID", help: "The id the app says in Hello (ASCII letters, digits, '.', '-', '_').")]
    )

    /// `healthctl apps list`.
    static let list = CommandSpec(
        "list",
        summary: "List the registered apps (never their tokens)."
    )

    /// `healthctl apps remove APP_ID [--delete-data]`.
    static let remove = CommandSpec(
        "remove",
        summary: "Remove an app, drop its grants and close its open connections; its samples stay unless --delete-data.",
        options: [.flag("delete-data", help: "Also delete every sample the app saved (they are the person's data: think twice).")],
        positionals: [PositionalSpec("APP_ID", help: "The app to remove.")]
    )

    /// `healthctl apps rotate-token APP_ID`.
    static let rotateToken = CommandSpec(
        "rotate-token",
        summary: "Issue a new token for an app (shown only this once); the old one stops opening sessions.",
        options: [tokenOnly],
        positionals: [PositionalSpec("APP_ID", help: "The app whose token to replace.")]
    )

    /// `healthctl status`.
    static let status = CommandSpec(
        "status",
        summary: "Show the daemon's version, uptime, connections, calls served and data directory."
    )

    /// `--token-only`, shared by the commands that issue a token.
    static let tokenOnly = OptionSpec.flag(
        "token-only", help: "Print only the token on standard output, for scripts.")
}
