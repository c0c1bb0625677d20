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
