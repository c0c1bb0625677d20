public import Foundation
public import HealthBrokerClient

/// A consent agent for tests: watches prompts on the admin socket and queues every event it gets.
public final class ConsentAgentHarness: @unchecked Sendable {
    /// The admin connection the agent uses (also for answering).
    public let admin: BrokerAdmin
    private let lock = NSLock()
    private var events: [PromptEvent] = []
    private var failure: BrokerError?
    private var task: Task<Void, Never>?

    /// Connects to the daemon's admin socket and starts watching prompts.
    public init(daemon: DaemonProcess) async throws {
        admin = try await daemon.admin()
        let stream = admin.watchPrompts()
        task = Task { [weak self] in
            do {
                for try await event in stream {
                    self?.record(event)
                }
            } catch {
                self?.fail(error as? BrokerError)
            }
        }
        // The watch call starts when the task first iterates: give it time to reach the broker, so a
        // prompt raised right after this returns is seen.
        try await Task.sleep(for: .milliseconds(150))
    }

    deinit {
        task?.cancel()
        admin.close()
    }

    private func record(_ event: PromptEvent) { lock.withLock { events.append(event) } }
    private func fail(_ error: BrokerError?) { lock.withLock { failure = error } }

    /// Every event received so far.
    public var received: [PromptEvent] { lock.withLock { events } }

    /// Prompts raised so far, in order.
    public var raisedPrompts: [Prompt] {
        received.compactMap { if case .raised(let prompt) = $0 { prompt } else { nil } }
    }

    /// Resolutions seen so far, by prompt id.
    public var resolutions: [UInt64: PromptResolution] {
        var result: [UInt64: PromptResolution] = [:]
        for case .resolved(let id, let resolution) in received { result[id] = resolution }
        return result
    }

    /// Waits for the `index`-th raised prompt (0-based).
    ///
    /// `timeout` counts this task's scheduled time (`ScheduledDeadline`).
    public func prompt(_ index: Int = 0, timeout: TimeInterval = 10) async throws -> Prompt {
        var deadline = ScheduledDeadline(seconds: timeout)
        while true {
            let prompts = raisedPrompts
            if prompts.count > index { return prompts[index] }
            if let failure = lock.withLock({ failure }) { throw failure }
            if deadline.hasPassed() { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw DaemonError("no prompt #\(index) within \(timeout) s; events: \(received)")
    }

    /// Waits until `promptID` is resolved and returns how.
    ///
    /// `timeout` counts this task's scheduled time (`ScheduledDeadline`).
    public func resolution(of promptID: UInt64, timeout: TimeInterval = 10) async throws -> PromptResolution {
        var deadline = ScheduledDeadline(seconds: timeout)
        while true {
            if let resolution = resolutions[promptID] { return resolution }
            if deadline.hasPassed() { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw DaemonError("prompt \(promptID) not resolved within \(timeout) s")
    }

    /// Answers a prompt.
    public func answer(_ prompt: Prompt, _ decisions: [TypeDecision]) async throws {
        try await admin.answerPrompt(prompt.id, decisions: decisions)
    }

    /// Answers every part of a prompt the same way.
    public func answerAll(_ prompt: Prompt, share: ShareDecision, read: ReadDecision) async throws {
        let types = Set(prompt.shareTypes + prompt.readTypes)
        let decisions = types.sorted().map { type in
            TypeDecision(type: type,
                         share: prompt.shareTypes.contains(type) ? share : nil,
                         read: prompt.readTypes.contains(type) ? read : nil)
        }
        try await answer(prompt, decisions)
    }
}
