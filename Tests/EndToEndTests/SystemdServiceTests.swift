import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// `healthbrokerd` started as systemd starts it: sockets passed by socket activation, readiness and
/// stopping told through `NOTIFY_SOCKET`, and log lines for the journal.
@Suite("Started by systemd")
struct SystemdServiceTests {
    /// The `KEY=value` lines of a notification.
    func lines(_ message: String?) -> [String] {
        message.map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    @Test func servesThePassedSocketsNotifiesAndLeavesTheirFiles() async throws {
        let daemon = try ActivatedDaemon()
        let appPath = daemon.directory + "/app.sock"
        let adminPath = daemon.directory + "/admin.sock"
        let app = try ActivatedDaemon.listeningSocket(at: appPath)
        defer { close(app) }
        let admin = try ActivatedDaemon.listeningSocket(at: adminPath)
        defer { close(admin) }
        // The flags name other paths: were the daemon to bind instead of adopting, those files
        // would appear, and the test's own paths would not reach it.
        let flagApp = daemon.directory + "/flag-app.sock"
        let flagAdmin = daemon.directory + "/flag-admin.sock"
        // The admin socket first and the names reversed: only the names say which is which.
        try daemon.start(
            arguments: ["--socket", flagApp, "--admin-socket", flagAdmin, "--data-dir", daemon.dataDirectory, "--log-level", "debug"],
            passing: [admin, app], names: "admin:app")

        let ready = lines(try await daemon.nextNotification())
        #expect(ready.contains("READY=1"), "\(daemon.log())")
        #expect(ready.contains("MAINPID=\(daemon.pid)"))
        #expect(ready.contains { $0.hasPrefix("STATUS=") })

        let registrar = try await BrokerAdmin.connect(socketPath: adminPath)
        let credentials = try await registrar.addApp(AppRegistration(appID: "com.example.activated", name: "Activated", readUsage: "reads", shareUsage: "writes"))
        registrar.close()
        let store = try await HealthStore.connect(socketPath: appPath, appID: "com.example.activated", appToken: credentials.token)
        _ = try await store.ping(payload: [4, 2])
        store.close()
        #expect(!FileManager.default.fileExists(atPath: flagApp))
        #expect(!FileManager.default.fileExists(atPath: flagAdmin))
        #expect(daemon.log().contains("inherited_sockets=app,admin"))
        // Not the journal: lines keep their timestamps and have no priority prefix.
        #expect(daemon.log().hasPrefix("ts="))

        #expect(try await daemon.stop(signal: SIGTERM) == 0, "\(daemon.log())")
        #expect(lines(try await daemon.nextNotification(timeout: .seconds(1))).contains("STOPPING=1"))
        // systemd's socket files stay (it removes them itself, RemoveOnStop=), still listening on
        // the test's descriptors, which systemd would hand to the next start.
        #expect(FileManager.default.fileExists(atPath: appPath))
        #expect(FileManager.default.fileExists(atPath: adminPath))
        #expect(DaemonProcess.accepts(appPath))
        #expect(daemon.log().contains("loop_closed_cleanly=true"))
    }

    @Test func aSocketNotPassedIsBoundFromItsPath() async throws {
        let daemon = try ActivatedDaemon()
        let appPath = daemon.directory + "/app.sock"
        let app = try ActivatedDaemon.listeningSocket(at: appPath)
        defer { close(app) }
        let adminPath = daemon.directory + "/admin.sock"
        // One descriptor and no names: it is the app socket.
        try daemon.start(
            arguments: ["--socket", appPath, "--admin-socket", adminPath, "--data-dir", daemon.dataDirectory],
            passing: [app])
        #expect(lines(try await daemon.nextNotification()).contains("READY=1"), "\(daemon.log())")
        #expect(daemon.log().contains("inherited_sockets=app"))

        let registrar = try await BrokerAdmin.connect(socketPath: adminPath)
        let credentials = try await registrar.addApp(AppRegistration(appID: "com.example.half", name: "Half", readUsage: "reads", shareUsage: "writes"))
        registrar.close()
        let store = try await HealthStore.connect(socketPath: appPath, appID: "com.example.half", appToken: credentials.token)
        _ = try await store.ping()
        store.close()

        #expect(try await daemon.stop() == 0, "\(daemon.log())")
        // The daemon's own socket goes with it; systemd's stays.
        #expect(!FileManager.default.fileExists(atPath: adminPath))
        #expect(FileManager.default.fileExists(atPath: appPath))
    }

    @Test func sighupReloadsBetweenReloadingAndReady() async throws {
        let daemon = try ActivatedDaemon()
        let policyPath = daemon.directory + "/policy.json"
        try #"{ "rules": [ { "app": "*", "share": "allow", "read": "full" } ] }"#.write(toFile: policyPath, atomically: true, encoding: .utf8)
        try daemon.start(arguments: [
            "--socket", daemon.directory + "/app.sock", "--admin-socket", daemon.directory + "/admin.sock",
            "--data-dir", daemon.dataDirectory, "--consent-policy", policyPath,
        ])
        #expect(lines(try await daemon.nextNotification()).contains("READY=1"), "\(daemon.log())")
        kill(daemon.pid, SIGHUP)
        let reloading = lines(try await daemon.nextNotification())
        #expect(reloading.contains("RELOADING=1"), "\(daemon.log())")
        #expect(reloading.contains { $0.hasPrefix("MONOTONIC_USEC=") })
        #expect(lines(try await daemon.nextNotification()).contains("READY=1"), "\(daemon.log())")
        #expect(daemon.log().contains("consent policy reloaded"))
        #expect(try await daemon.stop() == 0)
    }

    @Test func linesForTheJournalCarryTheirPriorityAndNoTimestamp() async throws {
        let daemon = try ActivatedDaemon()
        try daemon.start(
            arguments: [
                "--socket", daemon.directory + "/app.sock", "--admin-socket", daemon.directory + "/admin.sock",
                "--data-dir", daemon.dataDirectory, "--log-level", "debug",
            ],
            journalStream: true)
        #expect(lines(try await daemon.nextNotification()).contains("READY=1"), "\(daemon.log())")
        // A connection logs at debug, and a peer sending HTTP instead of frames gets a warning.
        if let fd = RawUnixSocket.connect(daemon.directory + "/app.sock") {
            _ = write(fd, "GET / HTTP/1.1\r\n\r\n", 18)
            try await Task.sleep(for: .milliseconds(200))
            close(fd)
        }
        #expect(try await daemon.stop() == 0, "\(daemon.log())")
        let logLines = daemon.log().split(separator: "\n").map(String.init)
        #expect(logLines.contains { $0.hasPrefix("<6>level=info component=healthbrokerd msg=\"broker started\"") }, "\(daemon.log())")
        #expect(logLines.contains { $0.hasPrefix("<7>level=debug ") })
        #expect(logLines.contains { $0.hasPrefix("<4>level=warning ") })
        // Every line starts with its priority, straight followed by the level: no timestamp field.
        #expect(!logLines.isEmpty && logLines.allSatisfy { $0.wholeMatch(of: /<[3467]>level=[a-z]+ .*/) != nil }, "\(daemon.log())")
    }
}
