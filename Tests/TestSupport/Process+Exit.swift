import Foundation

extension Process {
    /// Waits for the process to exit without blocking a thread of the cooperative pool.
    ///
    /// `waitUntilExit()` blocks the calling thread until Foundation notices the exit, which it does
    /// on threads of the same small pool: two tests blocked in it at once on a 2-core machine can
    /// leave nothing to notice the exit, and the test run hangs.
    public func exited() async {
        while isRunning {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
