#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// How long the caller of a solo unary call may wait in `poll(2)` for its own reply (a "hold", see
/// `ConnectionCore+Hold`), if at all: learnt per connection from a running median of how long solo
/// calls waited for their replies.
///
/// A hold pays only when the reply comes within about the time a suspended task takes to be woken
/// on another thread, so there is no hold at all while the typical wait exceeds `maxTypicalNanos`
/// (the median is still learnt from every solo call, holding or not, so holds come back when calls
/// get quick again). The first solo calls of a connection do not hold: there is nothing learnt yet.
/// Once holds pay, a hold waits up to `waitBoundNanos`, not a multiple of the typical wait.
final class HoldBudget: Sendable {
    /// No holds once the median solo wait is longer than this, ns.
    static let maxTypicalNanos: Int64 = 40_000
    /// How long a hold may wait for its reply before its task suspends, ns (unless a test forces
    /// another budget). Not a multiple of the typical wait: a thread that sleeps with a timer due
    /// within a few milliseconds was woken 4–10 µs late on this project's VMs (and stayed on its
    /// CPU), which cost a hold more than it saved; a 10 ms timeout cost nothing
    /// (`benchmarks/timer-wake`, PROFILE.md "The hold's near timer"). Holds are only for calls the
    /// broker answers at once (`Proto.Call.Request.repliesAtOnce`), so only a stalled broker makes
    /// one wait this long.
    static let waitBoundNanos: Int64 = 10_000_000

    /// The running median of solo calls' waits, ns; 0 until the first is recorded.
    private let typical = Atomic<Int64>(0)
    /// Solo calls whose wait was recorded, and how many of them took their reply in a hold.
    let soloCalls = Atomic<Int>(0)
    let takenInHold = Atomic<Int>(0)
    /// Whether this connection's solo calls may hold at all (and its loop stop reading when nothing
    /// is in flight). On unless `HEALTHBROKER_CLIENT_HOLDS=0` (then the loop always reads, as before
    /// holds; for A/B measurements); tests may turn it off or on per connection.
    let enabled = Atomic<Bool>(HoldBudget.enabledByEnvironment)
    /// False when `HEALTHBROKER_CLIENT_HOLDS=0`.
    static let enabledByEnvironment = ProcessInfo.processInfo.environment["HEALTHBROKER_CLIENT_HOLDS"] != "0"
    /// A budget (ns) that replaces the adaptive one when ≥ 0 (tests; 0 turns holds off).
    let forcedNanos = Atomic<Int64>(HoldBudget.environmentNanos)
    /// `HEALTHBROKER_CLIENT_HOLD_NANOS` when set (≥ 0, at most `waitBoundNanos`): a fixed budget
    /// for every connection, so a whole test suite runs with every solo call holding (or, with 0,
    /// none); -1 otherwise.
    static let environmentNanos: Int64 = {
        guard let text = ProcessInfo.processInfo.environment["HEALTHBROKER_CLIENT_HOLD_NANOS"], let value = Int64(text), value >= 0 else { return -1 }
        return min(value, waitBoundNanos)
    }()

    /// Creates a budget with nothing learnt.
    init() {}

    /// How long the next solo call may hold, ns (0: no hold).
    var nanos: Int64 {
        let forced = forcedNanos.load(ordering: .relaxed)
        if forced >= 0 { return forced }
        let typical = typical.load(ordering: .relaxed)
        return typical > 0 && typical <= Self.maxTypicalNanos ? Self.waitBoundNanos : 0
    }

    /// The current median estimate, ns (0: none yet); for tests and figures.
    var typicalNanos: Int64 { typical.load(ordering: .relaxed) }

    /// Learns one solo call's wait (ns from the end of its send to its result), and whether a hold
    /// took the reply.
    ///
    /// A frugal streaming median: each wait moves the estimate a step (1/16 of it, at least 250 ns)
    /// towards itself, so a few slow calls do not switch holds off and a few fast ones do not switch
    /// them on. Concurrent solo calls may race here; losing one step is harmless.
    func record(waitedNanos: Int64, takenInHold held: Bool) {
        soloCalls.add(1, ordering: .relaxed)
        if held { takenInHold.add(1, ordering: .relaxed) }
        let old = typical.load(ordering: .relaxed)
        let new: Int64
        if old == 0 {
            new = max(1, waitedNanos)
        } else {
            let step = max(old / 16, 250)
            if waitedNanos > old {
                new = min(old + step, waitedNanos, 1_000_000_000)
            } else if waitedNanos < old {
                new = max(old - step, waitedNanos, 1)
            } else {
                return
            }
        }
        typical.store(new, ordering: .relaxed)
    }

    /// Monotonic nanoseconds.
    @inline(__always)
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
