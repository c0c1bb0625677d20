public import Foundation

extension Process {
    /// Waits for the process to exit, or for `timeout` of this task's scheduled time; true if it exited.
    ///
    /// The timeout counts only time this task was being scheduled (`ScheduledDeadline`): a pass that
    /// took more than 50 ms counts 50 ms. In the parallel suite the cooperative pool can sit behind CPU-bound suites for
    /// tens of seconds, and a wall-clock deadline then expires while the process (and Foundation's
    /// notice of its exit) waited with it; a process that never exits still fails after about `timeout`.
    public func exited(within timeout: Duration) async -> Bool {
        let flag = ExitFlag()
        let process = UncheckedProcessBox(self)
        let waiter = Thread {
            process.value.waitUntilExit()
            flag.set()
        }
        waiter.name = "test process waiter"
        waiter.start()
        var deadline = ScheduledDeadline(timeout)
        while !flag.isSet {
            if deadline.hasPassed() { return flag.isSet }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// Set once by the waiter thread when the process has exited.
private final class ExitFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}

/// A `Process` handed to the waiter thread; only `waitUntilExit()` is called there.
private struct UncheckedProcessBox: @unchecked Sendable {
    let value: Process

    init(_ value: Process) {
        self.value = value
    }
}
