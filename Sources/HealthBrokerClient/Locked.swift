import Foundation

/// A value reachable only under an `NSLock` (an NSLock rather than `Mutex`, so TSan sees it on Linux).
///
/// Confinement: `value` is touched only inside `withLock`, which holds the lock for the whole body;
/// that is what makes the `@unchecked Sendable` sound. Bodies must not block, must not resume
/// continuations or call user code, and must not take another `Locked` (no lock nesting). The one
/// exception is yielding to an `AsyncStream` continuation (`Link.publish`): it only enqueues the value.
///
/// The lock makes every access exclusive, so `value` opts out of Swift's run-time exclusivity
/// checks (`@exclusivity(unchecked)`): they cost a thread-local lookup on each of the several
/// `withLock` calls a request makes.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    @exclusivity(unchecked) private var value: Value

    /// Wraps `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
