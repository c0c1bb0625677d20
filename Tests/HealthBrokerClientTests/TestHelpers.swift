import Foundation
import HealthBrokerClient

/// A value shared between a test and the callbacks it observes, guarded by an `NSLock`.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    /// A copy of the value.
    var current: Value { withLock { $0 } }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes; returns its last value.
///
/// The timeout counts only time this task was being scheduled: a pass that took more than 50 ms
/// (the cooperative pool busy with the parallel suite's CPU-bound tests) counts 50 ms. So a wait that
/// starved for seconds, along with the work it waits for, is not failed the moment it runs again,
/// while a condition that never comes true still fails after about `timeout`.
func waitUntil(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let longestPass = Duration.milliseconds(50)
    var waited = Duration.zero
    var last = clock.now
    while !condition() {
        let now = clock.now
        waited += min(now - last, longestPass)
        last = now
        if waited >= timeout { return condition() }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}

/// A door that tasks wait at until the test opens it (once open, it stays open).
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Suspends until the gate is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Opens the gate and lets every waiter through.
    func open() {
        lock.lock()
        isOpen = true
        let released = waiters
        waiters = []
        lock.unlock()
        for waiter in released { waiter.resume() }
    }
}

/// The error of `result`, if any.
func failure<T, E: Error>(_ result: Result<T, E>) -> BrokerError? {
    if case .failure(let error) = result { return error as? BrokerError ?? BrokerError(code: .unknown, message: "\(error)") }
    return nil
}

/// The error an async typed-throwing body throws, if any.
func failure<T>(_ body: () async throws(BrokerError) -> T) async -> BrokerError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
