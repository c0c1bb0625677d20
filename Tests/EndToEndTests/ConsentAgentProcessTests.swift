import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// The real `healthctl consent`, driven through a pipe as a person's terminal would feed it.
@Suite("healthctl consent, the process")
struct ConsentAgentProcessTests {
    /// A running `healthctl consent`, its standard output collected as it arrives.
    final class Agent: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let lock = NSLock()
        private var text = ""

        /// Starts `healthctl consent` on `daemon`'s admin socket; `timeZone` sets its `TZ`.
        init(daemon: DaemonProcess, timeZone: String? = nil) throws {
            let folder = URL(fileURLWithPath: try DaemonProcess.binaryPath()).deletingLastPathComponent()
            process.executableURL = folder.appendingPathComponent("healthctl")
            process.arguments = ["consent", "--admin-socket", daemon.adminSocket]
            if let timeZone {
                var environment = ProcessInfo.processInfo.environment
                environment["TZ"] = timeZone
                process.environment = environment
            }
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var output: String { lock.withLock { text } }

        /// Sends `text` as is: part of a line, as a slow typist's terminal would deliver it.
        func typePiece(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        /// How many times `needle` shows in the output so far.
        func count(_ needle: String) -> Int { output.components(separatedBy: needle).count - 1 }

        /// Types `line` and a newline.
        func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        /// Waits until the output holds `needle` `count` times; false on timeout.
        func waitFor(_ needle: String, count: Int = 1, timeout: TimeInterval = 5) async throws -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if output.components(separatedBy: needle).count - 1 >= count { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    @Test func theNextQuestionAndTheAnswerGoOutWithoutWaitingForAnotherLine() async throws {
        let daemon = try await DaemonProcess()
        let agent = try Agent(daemon: daemon)
        defer { agent.stop() }
        try await Task.sleep(for: .milliseconds(300))   // the agent's prompt watch reaches the broker
        let store = try await daemon.connectApp("com.example.asker")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share "), "the first question: \(agent.output)")
        // A valid answer, and nothing typed after it: the second question must show by itself.
        agent.type("allow")
        #expect(try await agent.waitFor("read "), "the read question did not show after a valid answer: \(agent.output)")
        agent.type("full")
        // The decision reaches the broker (the app's request completes) with no further line.
        let done = Task { try await request.value }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, try await store.authorizationStatus(for: .stepCount) != .sharingAuthorized {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized, "\(agent.output)")
        try await done.value
    }
}
