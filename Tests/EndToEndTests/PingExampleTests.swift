import BrokerModel
import Foundation
import TestSupport
import Testing

/// The ping example, run as a user would run it, against a real daemon.
@Suite("ping-example against a real daemon")
struct PingExampleTests {
    @Test func itTimesPingsFromThePoolAndFromTheStoreExecutor() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.ping")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtProduct("ping-example"))
        process.arguments = ["--socket", daemon.appSocket, "--app-id", "com.example.ping", "--count", "2"]
        process.environment = ["HEALTHBROKER_APP_TOKEN": credentials.token]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        await process.exited()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "stderr: \(errorText)")
        #expect(text.contains("connected to HealthBroker"))
        #expect(text.contains("ping 2: "))
        #expect(text.contains("ping 2 on the store's executor: "))
        #expect(text.contains("ping with a 50 ms delay and a 10 ms timeout: ") && text.lowercased().contains("deadline"))
    }
}
