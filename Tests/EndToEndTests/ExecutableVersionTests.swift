import BrokerModel
import Foundation
import TestSupport
import Testing

/// Every executable the package builds answers `--help` and `--version` (the shared parser's built-ins).
@Suite("Executables' --help and --version")
struct ExecutableVersionTests {
    static let executables = [
        "healthbrokerd", "healthctl", "healthload", "BrokerScenarios", "FrameFuzzer",
        "ping-example", "authorization-example", "steps-example", "writer-example",
    ]

    /// Runs `name` (built beside the daemon) with `arguments`; its exit status and standard output.
    /// Waits without blocking a cooperative thread (`Process.exited()`): blocked waits starve the
    /// parallel suite on two cores.
    static func run(_ name: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let folder = URL(fileURLWithPath: try DaemonProcess.binaryPath()).deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent(name)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        await process.exited()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test(arguments: executables) func answersVersionAndHelp(_ name: String) async throws {
        let version = try await Self.run(name, ["--version"])
        #expect(version.status == 0)
        #expect(version.output == "\(name) \(BrokerVersion.broker)\n")
        let help = try await Self.run(name, ["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("USAGE: \(name)"))
        #expect(help.output.contains("--version"))
    }
}
