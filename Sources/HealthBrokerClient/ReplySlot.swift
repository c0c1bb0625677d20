#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where a solo unary call's result meets a caller that waits for it briefly on its own thread
/// (`spin`) before it lets its task suspend: the reply then costs one thread wake-up (the loop's)
/// instead of two (the loop's, then a cooperative-pool thread's).
///
/// Hand-off: `state` starts at `spinning`. The deliverer (the loop thread, or whoever cancels or
/// closes) stores the event, then swaps in `delivered`; the waiter either sees `delivered` and
/// resumes the continuation itself (inside `withUnsafeContinuation`'s body, so the task goes on
/// without suspending), or swaps `spinning` for `parked` and leaves the resume to the deliverer.
/// Exactly one side resumes: the one whose atomic operation came second. `CallTable` hands each
/// waiter at most one event, so `deliver` runs at most once.
///
/// Confinement: `event` is written only by the deliverer before its releasing swap and read only by
/// the waiter after an acquiring load saw `delivered`; the continuation is set at creation and
/// reaches the deliverer through the call table's lock. That makes the `@unchecked Sendable` sound.
final class ReplySlot: @unchecked Sendable {
    private static let spinning = 0
    private static let delivered = 1
    private static let parked = 2

    private let state = Atomic<Int>(spinning)
    private let continuation: UnsafeContinuation<CallEvent, Never>
    @exclusivity(unchecked) private var event: CallEvent?

    /// A slot whose result resumes `continuation`.
    init(_ continuation: UnsafeContinuation<CallEvent, Never>) {
        self.continuation = continuation
    }

    /// Hands `event` over (at most once): to the spinning waiter, or by resuming the parked task.
    /// Never call this while holding a lock.
    func deliver(_ event: CallEvent) {
        self.event = event
        if state.exchange(Self.delivered, ordering: .acquiringAndReleasing) == Self.parked {
            continuation.resume(returning: event)
        }
    }

    /// Waits on this thread until the event arrives or the monotonic clock reaches `deadline` (ns);
    /// then resumes the continuation with the event (returning the time it saw it, ns), or parks
    /// (returning nil: `deliver` resumes it). A `deadline` in the past parks at once unless the
    /// event is already here. Bounded: one clock read and one `sched_yield` per 32 checks of the slot
    /// (without the yield the loop thread, queued behind the spinner on its CPU, often could not
    /// deliver until the spin gave up).
    func spin(until deadline: Int64) -> Int64? {
        var now: Int64 = 0
        repeat {
            for _ in 0..<32 where state.load(ordering: .acquiring) == Self.delivered {
                return take(at: ReplySpin.now())
            }
            now = ReplySpin.now()
            // The loop thread that must read the reply may be queued behind this one on its CPU.
            sched_yield()
        } while now < deadline
        let (parkedNow, _) = state.compareExchange(expected: Self.spinning, desired: Self.parked, ordering: .acquiringAndReleasing)
        return parkedNow ? nil : take(at: now)
    }

    /// Resumes the continuation with the delivered event (waiter's thread, `delivered` seen).
    private func take(at now: Int64) -> Int64 {
        continuation.resume(returning: event!)
        return now
    }
}
