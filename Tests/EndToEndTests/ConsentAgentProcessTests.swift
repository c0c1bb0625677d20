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
        /// Where typed text goes: a pipe's writing end, or a pseudo-terminal's master side.
        private let keyboard: FileHandle
        private let lock = NSLock()
        private var text = ""

        /// Starts `healthctl consent` on `daemon`'s admin socket; `timeZone` sets its `TZ`; with
        /// `terminal` its standard streams are a pseudo-terminal (so it sees a tty, and the tty echoes).
        init(daemon: DaemonProcess, timeZone: String? = nil, terminal: Bool = false) throws {
            let folder = URL(fileURLWithPath: try DaemonProcess.binaryPath()).deletingLastPathComponent()
            process.executableURL = folder.appendingPathComponent("healthctl")
            process.arguments = ["consent", "--admin-socket", daemon.adminSocket]
            if let timeZone {
                var environment = ProcessInfo.processInfo.environment
                environment["TZ"] = timeZone
                process.environment = environment
            }
            var screen: FileHandle?
            var child: FileHandle?
            if terminal {
                var master: Int32 = -1
                var slave: Int32 = -1
                guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw DaemonError("openpty failed: errno \(errno)") }
                let side = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
                process.standardInput = side
                process.standardOutput = side
                process.standardError = side
                keyboard = FileHandle(fileDescriptor: master, closeOnDealloc: true)
                child = side
                // Read with read(2) on a thread: once the child is gone the master reads fail with
                // EIO, which FileHandle's availableData does not survive.
                let reading = master
                Thread.detachNewThread { [weak self] in
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = read(reading, &buffer, buffer.count)
                        guard count > 0, let self else { return }
                        let data = String(decoding: buffer.prefix(count), as: UTF8.self)
                        self.lock.withLock { self.text += data }
                    }
                }
            } else {
                let input = Pipe()
                let output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                process.standardError = output
                keyboard = input.fileHandleForWriting
                screen = output.fileHandleForReading
            }
            screen?.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
            // The child has its own copy; ours would keep the terminal open after it exits.
            try child?.close()
        }

        var output: String { lock.withLock { text } }

        /// Sends `text` as is: part of a line, as a slow typist's terminal would deliver it.
        func typePiece(_ text: String) { keyboard.write(Data(text.utf8)) }

        /// How many times `needle` shows in the output so far.
        func count(_ needle: String) -> Int { output.components(separatedBy: needle).count - 1 }

        /// Types `line` and a newline.
        func type(_ line: String) { keyboard.write(Data((line + "\n").utf8)) }

        /// Waits until the output holds `needle` `count` times; false after `timeout` of this task's
        /// scheduled time (`ScheduledDeadline`).
        func waitFor(_ needle: String, count: Int = 1, timeout: TimeInterval = 5) async throws -> Bool {
            await pollUntil(within: .milliseconds(Int64(timeout * 1_000)), every: .milliseconds(20)) {
                output.components(separatedBy: needle).count - 1 >= count
            }
        }

        /// Ends the agent without waiting for it here: `waitUntilExit()` on a cooperative thread can
        /// starve the whole parallel suite (see `Process.exited()`), so a thread of its own reaps it.
        func stop() {
            try? keyboard.close()
            if process.isRunning { process.terminate() }
            let process = self.process
            Task.detached { await process.exited() }
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
        _ = try await pollUntil(within: .seconds(5), every: .milliseconds(20)) {
            try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized
        }
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized, "\(agent.output)")
        try await done.value
    }

    @Test func onARealTerminalTheQuestionWaitsOnItsLineAndCtrlDStops() async throws {
        let daemon = try await DaemonProcess()
        let agent = try Agent(daemon: daemon, terminal: true)
        defer { agent.stop() }
        #expect(try await agent.waitFor("waiting for prompts"), "\(agent.output)")
        try await Task.sleep(for: .milliseconds(300))
        let store = try await daemon.connectApp("com.example.tty")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.stepCount], read: [.heartRate, .stepCount], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share Steps (stepCount)?"), "\(agent.output)")
        // The terminal holds a line until Enter: pieces typed slowly arrive as one line.
        agent.typePiece("deny")
        try await Task.sleep(for: .milliseconds(200))
        agent.typePiece(" all\n")
        #expect(try await agent.waitFor("answered prompt"), "\(agent.output)")
        try await request.value
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingDenied, "\(agent.output)")
        // On a terminal the agent does not echo lines itself (the terminal does): 'deny all' shows once.
        #expect(agent.count("deny all") == 1, "\(agent.output)")
        agent.typePiece("\u{04}")   // Ctrl-D
        #expect(try await Self.exited(agent), "Ctrl-D with no prompt pending stops the agent: \(agent.output)")
    }

    /// Waits up to five seconds of this task's scheduled time for the agent to exit.
    static func exited(_ agent: Agent) async throws -> Bool {
        await agent.process.exited(within: .seconds(5))
    }
}
