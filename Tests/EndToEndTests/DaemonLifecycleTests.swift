import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Start, restart, refusal of a second daemon, SIGTERM, and data at rest.
@Suite("Daemon lifecycle")
struct DaemonLifecycleTests {
    @Test func theRegistrySurvivesARestart() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.durable", readUsage: "reads", shareUsage: "")
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        let admin = try await daemon.admin()
        defer { admin.close() }
        let apps = try await admin.listApps()
        #expect(apps.map(\.appID) == ["com.example.durable"])
        #expect(apps.first?.readUsage == "reads")
        #expect(apps.first?.shareUsage == "")
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.durable", appToken: credentials.token)
        defer { store.close() }
        _ = try await store.ping()
    }

    @Test func sigtermExitsZeroAndRemovesTheSockets() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.term")
        _ = try await store.ping()
        #expect(try await daemon.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.appSocket))
        #expect(!FileManager.default.fileExists(atPath: daemon.adminSocket))
        // The client sees the broker go away as UNAVAILABLE.
        let error = await #expect(throws: BrokerError.self) { _ = try await store.ping() }
        #expect(error?.code == .unavailable)
        #expect(daemon.log().contains("broker stopped"))
        // Every libuv handle was closed before the loop: uv_loop_close returned 0.
        #expect(daemon.log().contains("loop_closed_cleanly=true"))
        #expect(!daemon.log().contains("handles still open"))
    }

    @Test func sigtermLetsCallsInFlightFinishWithinTheGrace() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--shutdown-grace-ms", "3000"])
        let store = try await daemon.connectApp("com.example.grace")
        defer { store.close() }
        let short = Task { try await store.ping(payload: [1], delay: .milliseconds(300)) }
        try await Task.sleep(for: .milliseconds(50))
        kill(daemon.pid, SIGTERM)
        let reply = await short.result
        #expect(try reply.get().payload == [1], "\(daemon.log())")
        #expect(try await daemon.stop() == 0)
    }

    @Test func callsThatCannotFinishWithinTheGraceAreUnavailable() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--shutdown-grace-ms", "200"])
        let store = try await daemon.connectApp("com.example.slow")
        defer { store.close() }
        let long = Task { try await store.ping(delay: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        kill(daemon.pid, SIGINT)
        let result = await long.result
        if case .failure(let error as BrokerError) = result {
            #expect(error.code == .unavailable)
        } else {
            Issue.record("expected UNAVAILABLE, got \(result)")
        }
        #expect(try await daemon.stop() == 0)
    }

    @Test func aSecondDaemonOnALiveSocketIsRefused() async throws {
        let daemon = try await DaemonProcess()
        let second = Process()
        second.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        second.arguments = ["--socket", daemon.appSocket, "--admin-socket", daemon.directory + "/admin2.sock", "--data-dir", daemon.directory + "/data2"]
        let errors = Pipe()
        second.standardError = errors
        try second.run()
        await second.exited()
        #expect(second.terminationStatus != 0)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("already serves"))
        // The first daemon still serves.
        let store = try await daemon.connectApp("com.example.first")
        defer { store.close() }
        _ = try await store.ping()
    }

    @Test func aSecondDaemonOnALiveDataDirectoryIsRefusedNamingTheHolder() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp("com.example.owner")
        // Other sockets, the same data directory: before the lock this one started and served.
        let second = Process()
        second.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        let otherApp = daemon.directory + "/app2.sock"
        second.arguments = ["--socket", otherApp, "--admin-socket", daemon.directory + "/admin2.sock", "--data-dir", daemon.dataDirectory]
        let errors = Pipe()
        second.standardError = errors
        try second.run()
        // 30 s of this task's scheduled time: under a full parallel run a first start can take over 10 s,
        // and the pool can sit behind CPU-bound suites for longer.
        let refused = await second.exited(within: .seconds(30))
        if !refused { kill(second.processIdentifier, SIGTERM) }
        await second.exited()
        #expect(refused, "the second daemon kept running on a data directory in use")
        #expect(second.terminationStatus != 0)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("in use by process \(daemon.pid)"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: otherApp))
        // The first daemon still serves, with its registry intact.
        let admin = try await daemon.admin()
        #expect(try await admin.listApps().map(\.appID) == ["com.example.owner"])
        admin.close()
        // Once it has stopped, the directory is free again.
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        let again = try await daemon.admin()
        defer { again.close() }
        #expect(try await again.listApps().map(\.appID) == ["com.example.owner"])
    }

    @Test func sighupWithoutAPolicyIsLoggedAndChangesNothing() async throws {
        let daemon = try await DaemonProcess(defaultSignals: true)
        let store = try await daemon.connectApp("com.example.hangup")
        defer { store.close() }
        kill(daemon.pid, SIGHUP)
        try await waitUntil(seconds: 10) { daemon.log().contains("no consent policy file to reload") || !daemon.isRunning }
        #expect(daemon.isRunning, "SIGHUP killed the daemon")
        _ = try await store.ping()
        #expect(try await daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.appSocket))
        #expect(!FileManager.default.fileExists(atPath: daemon.adminSocket))
    }

    @Test func sighupReloadsTheConsentPolicyAndKeepsTheOldOneWhenTheFileIsInvalid() async throws {
        let policy = { (share: String, types: [ObjectType]) in
            #"{ "rules": [ { "app": "*", "types": [\#(types.map { "\"\($0.identifier)\"" }.joined(separator: ", "))], "share": "\#(share)" } ] }"#
        }
        let daemon = try await DaemonProcess(policy: policy("deny", [.stepCount, .bodyMass]), defaultSignals: true)
        let path = daemon.directory + "/policy.json"
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.reload")
        defer { store.close() }

        // An invalid file is refused with a log line; the policy read at start still decides.
        try "{ \"rules\": [ { \"app\": \"*\", \"share\": \"maybe\" } ] }".write(toFile: path, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        try await waitUntil(seconds: 10) { daemon.log().contains("consent policy reload refused") || !daemon.isRunning }
        #expect(daemon.isRunning, "SIGHUP killed the daemon")
        try await store.requestAuthorization(toShare: [.stepCount], read: [], timeout: .seconds(5))
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingDenied)

        // A valid file replaces it: its rule decides, and the old rule is gone.
        try policy("allow", [.heartRate]).write(toFile: path, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        try await waitUntil(seconds: 10) { daemon.log().contains("consent policy reloaded") || !daemon.isRunning }
        try await store.requestAuthorization(toShare: [.heartRate], read: [], timeout: .seconds(5))
        #expect(try await store.authorizationStatus(for: .heartRate) == .sharingAuthorized)
        #expect(agent.raisedPrompts.isEmpty)
        async let asked: Void = store.requestAuthorization(toShare: [.bodyMass], read: [])
        let prompt = try await agent.prompt(0)
        #expect(prompt.shareTypes == [.bodyMass])
        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await asked

        // Nothing else happened: the same session still works and SIGTERM still stops it cleanly.
        _ = try await store.ping()
        #expect(try await daemon.stop() == 0)
    }

    @Test func aStaleSocketFileIsReplaced() async throws {
        let daemon = try await DaemonProcess()
        try await daemon.stop(signal: SIGKILL)
        // SIGKILL leaves the socket files behind.
        #expect(FileManager.default.fileExists(atPath: daemon.appSocket))
        try await daemon.start()
        let store = try await daemon.connectApp("com.example.stale")
        defer { store.close() }
        _ = try await store.ping()
    }

    @Test func dataAndSocketsHaveTightModesAndLogsHoldNoTokens() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.modes")
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.modes", appToken: credentials.token)
        defer { store.close() }
        #expect(try mode(daemon.dataDirectory) == 0o700)
        #expect(try mode(daemon.dataDirectory + "/broker.sqlite3") == 0o600)
        #expect(try mode(daemon.adminSocket) == 0o600)
        #expect(try mode(daemon.appSocket) == 0o666)
        #expect(!daemon.log().contains(credentials.token))
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}
