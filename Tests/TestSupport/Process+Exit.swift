public import Foundation

extension Process {
    /// Waits for the process to exit without blocking a thread of the cooperative pool.
    ///
    /// `waitUntilExit()` blocks the calling thread until Foundation notices the exit, which it does
    /// on threads of the same small pool: two tests blocked in it at once on a 2-core machine can
    /// leave nothing to notice the exit, and the test run hangs. Here a thread of its own waits.
    public func exited() async {
        let process = UncheckedProcess(self)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = Thread {
                process.value.waitUntilExit()
                continuation.resume()
            }
            waiter.name = "test process waiter"
            waiter.start()
        }
    }
}

/// A `Process` handed to the waiter thread; only `waitUntilExit()` is called there.
private struct UncheckedProcess: @unchecked Sendable {
    let value: Process

    init(_ value: Process) {
        self.value = value
    }
}
