import Foundation

/// A worker's `StatsTally` behind a lock: the worker updates it once per batch of replies, the
/// runner copies it once a second.
final class WorkerStats: @unchecked Sendable {
    private let lock = NSLock()
    private var tally = StatsTally()

    /// Runs `body` on the tally under the lock.
    @inline(__always)
    func update<Result>(_ body: (inout StatsTally) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&tally)
    }

    /// A copy of the tally.
    func snapshot() -> StatsTally {
        lock.lock()
        defer { lock.unlock() }
        return tally
    }
}
