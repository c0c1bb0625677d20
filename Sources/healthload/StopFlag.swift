import Synchronization

/// A request to stop the load early (SIGINT, or the runner giving up), visible to every thread.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let stoppedAt = Atomic<UInt64>(0)

    /// A flag not yet raised.
    init() {}

    /// Raises the flag (the first time only, remembering when); safe in a signal handler.
    func raise() {
        if stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            stoppedAt.store(MonotonicClock.now(), ordering: .releasing)
        }
    }

    /// Whether the flag was raised.
    var isRaised: Bool { stopped.load(ordering: .acquiring) }

    /// When it was raised (monotonic nanoseconds), or nil.
    var raisedAt: UInt64? {
        guard isRaised else { return nil }
        let time = stoppedAt.load(ordering: .acquiring)
        return time == 0 ? MonotonicClock.now() : time
    }
}
