import Foundation

/// A value reachable only under an `NSLock` (an NSLock rather than `Mutex`, so TSan sees it on Linux).
///
/// Confinement: `value` is touched only inside `withLock`, which holds the lock for the whole body;
/// that is what makes the `@unchecked Sendable` sound. Bodies must not block, must not resume
/// continuations or call user code, and must not take another `Locked` (no lock nesting). The one
/// exception is yielding to an `AsyncStream` continuation (`Link.publish`): it only enqueues the value.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

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
