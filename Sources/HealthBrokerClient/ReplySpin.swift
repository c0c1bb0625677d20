#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// How long the caller of a solo unary call (the only call in flight on its connection) waits for
/// the reply on its own thread before its task suspends (see `ReplySlot`), adapted per connection
/// as adaptive mutexes do: from a running median of how long such calls waited for their replies.
///
/// The spin pays only when the reply comes back within about the time a suspended task takes to be
/// woken on another thread. So it is skipped while the typical wait exceeds `maxTypicalNanos`
/// (a slow call spins not at all; the median is still learnt from every solo call, so it comes back
/// when calls get quick again), is capped at `maxBudgetNanos`, and never happens on a one-CPU
/// machine, where the spinner would hold the very CPU the loop thread needs to read the reply.
///
/// Off by default (`enabledByEnvironment`): a task whose reply arrives within the spin never
/// suspends, so it keeps its cooperative thread; with many tasks calling, the others then wait in
/// the pool's queue, the connection sees one call at a time and throughput halved when measured.
final class ReplySpin: Sendable {
    /// The longest a caller spins, ns.
    static let maxBudgetNanos: Int64 = 50_000
    /// The shortest spin once spinning pays, ns (a fast broker's median is noisy).
    static let minBudgetNanos: Int64 = 10_000
    /// Spinning stops once the median solo wait is longer than this, ns.
    static let maxTypicalNanos: Int64 = 30_000
    /// More than one CPU online (checked once).
    static let hasSpareCPU = ProcessInfo.processInfo.activeProcessorCount > 1
    /// Spinning is off unless the environment has `HEALTHBROKER_CLIENT_SPIN=1`: measured on a 2-vCPU
    /// VM (benchmarks/PROFILE.md, "A solo call's caller spins") it cut a solo call's p50 but halved
    /// throughput with 16 calls in flight.
    static let enabledByEnvironment = ProcessInfo.processInfo.environment["HEALTHBROKER_CLIENT_SPIN"] == "1"

    /// The running median of solo calls' waits, ns; 0 until the first is recorded.
    private let typical = Atomic<Int64>(0)
    /// Solo calls so far, and how many of them took their reply while spinning (figures, tests).
    let soloCalls = Atomic<Int>(0)
    let takenBySpin = Atomic<Int>(0)
    /// A budget (ns) that replaces the adaptive one when ≥ 0: tests use it to hold a spin open.
    let forcedBudgetNanos = Atomic<Int64>(-1)
    /// Whether solo calls take the spinning path at all (tests turn it on per connection).
    let enabled = Atomic<Bool>(ReplySpin.enabledByEnvironment)
    /// Solo calls in a row since a call last waited with others in flight.
    private let soloStreak = Atomic<Int>(0)
    /// Solo calls in a row before spinning starts: a workload that keeps several calls in flight
    /// (whose cooperative threads have queued tasks to run) only now and then drains to one call,
    /// and spinning then would keep a thread from those tasks.
    static let soloStreakToSpin = 8

    /// Creates a gauge with nothing learnt (the first solo call does not spin).
    init() {}

    /// The next solo call's spin budget, ns (0: suspend at once).
    var budgetNanos: Int64 {
        let forced = forcedBudgetNanos.load(ordering: .relaxed)
        if forced >= 0 { return forced }
        let typical = typical.load(ordering: .relaxed)
        guard Self.hasSpareCPU, typical > 0, typical <= Self.maxTypicalNanos,
              soloStreak.load(ordering: .relaxed) >= Self.soloStreakToSpin else { return 0 }
        return min(Self.maxBudgetNanos, max(Self.minBudgetNanos, 2 * typical))
    }

    /// A call waited with others in flight: the solo streak starts again.
    @inline(__always)
    func noteShared() {
        if soloStreak.load(ordering: .relaxed) != 0 { soloStreak.store(0, ordering: .relaxed) }
    }

    /// The current median estimate, ns (0: none yet); for tests and figures.
    var typicalNanos: Int64 { typical.load(ordering: .relaxed) }

    /// Learns one solo call's wait (ns from the frame's hand-over to the reply being taken), and
    /// whether the spin took the reply.
    ///
    /// A frugal streaming median: each wait moves the estimate a step (1/16 of it, at least 250 ns)
    /// towards itself, so a few slow calls do not switch spinning off and a few fast ones do not
    /// switch it on. Concurrent solo calls may race here; losing one step is harmless.
    func record(waitedNanos: Int64, takenBySpin spun: Bool) {
        soloCalls.add(1, ordering: .relaxed)
        if soloStreak.load(ordering: .relaxed) < Self.soloStreakToSpin { soloStreak.add(1, ordering: .relaxed) }
        if spun { takenBySpin.add(1, ordering: .relaxed) }
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
