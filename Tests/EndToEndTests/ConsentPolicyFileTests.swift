import BrokerModel
import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// healthbrokerd and its --consent-policy file: the type names it takes and how it reports a bad one.
@Suite("Consent policy file")
struct ConsentPolicyFileTests {
    /// Runs the built `healthbrokerd` with `arguments`: its exit status, standard output and standard error.
    static func daemon(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func helpPointsToTheFormat() async throws {
        let help = try await Self.daemon(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("docs/CONSENT-POLICY.md"), "\(help.output)")
    }

    @Test func anUnknownTypeNameStopsTheDaemonNamingTheFileAndTheRule() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hb-policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("policy.json").path
        try #"{ "rules": [ { "app": "*", "types": ["heartRate"], "read": "full" }, { "app": "com.example.x", "types": ["stepz"], "share": "deny" } ] }"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = try await Self.daemon([
            "--consent-policy", path, "--data-dir", folder.appendingPathComponent("data").path,
            "--socket", folder.appendingPathComponent("app.sock").path,
            "--admin-socket", folder.appendingPathComponent("admin.sock").path,
        ])
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("consent policy \(path): rules[1].types[0]: unknown type \"stepz\""), "\(run.errors)")
        #expect(run.errors.contains("com.example.x"), "\(run.errors)")
    }

    @Test func aliasesDecideInTheDaemon() async throws {
        let daemon = try await DaemonProcess(policy: #"{ "rules": [ { "app": "*", "types": ["stepCount"], "share": "allow", "read": "full" } ] }"#)
        let store = try await daemon.connectApp("com.example.alias")
        defer { store.close() }
        // Decided whole by the rule: the request completes without any agent.
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(10))
        #expect(try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .unnecessary)
    }
}
