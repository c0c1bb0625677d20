/// The intended send times of an open-loop (constant-rate) load on one connection.
///
/// Call k is meant to go out at `firstSend + k × interval`, whatever happened to the calls before it.
/// A call that cannot go out on time (the connection's in-flight cap is reached, the thread was late)
/// keeps its intended time and goes out as soon as it can; its latency is measured from the intended
/// time, so a stall shows up as latency in every call it held back (no coordinated omission).
struct OpenLoopSchedule: Sendable, Equatable {
    /// When call 0 is meant to go out (monotonic nanoseconds).
    let firstSend: UInt64
    /// Nanoseconds between intended sends.
    let interval: Double
    /// No call is intended at or after this instant.
    let end: UInt64
    /// The next call not yet taken.
    private(set) var nextIndex: UInt64 = 0

    /// A schedule of `callsPerSecond` calls a second from `start` until `end`, shifted by `phase`
    /// (0 ≤ phase < 1) of an interval so that connections sharing a rate interleave.
    init(start: UInt64, end: UInt64, callsPerSecond: Double, phase: Double = 0) {
        precondition(callsPerSecond > 0, "an open-loop rate must be positive")
        interval = 1e9 / callsPerSecond
        firstSend = start + UInt64((interval * min(max(phase, 0), 0.999_999)).rounded(.down))
        self.end = end
    }

    /// When call `index` is meant to go out.
    func intendedTime(ofCall index: UInt64) -> UInt64 {
        firstSend + UInt64((Double(index) * interval).rounded())
    }

    /// The intended time of the next call not yet taken, or nil when the schedule is over.
    var nextIntendedTime: UInt64? {
        let time = intendedTime(ofCall: nextIndex)
        return time < end ? time : nil
    }

    /// Takes the next call if it is due at `now`: returns its intended time (the start its latency
    /// counts from), or nil when none is due yet or the schedule is over.
    mutating func takeDue(now: UInt64) -> UInt64? {
        guard let time = nextIntendedTime, time <= now else { return nil }
        nextIndex += 1
        return time
    }

    /// Calls due at `now` and not yet taken: the backlog.
    func dueCount(now: UInt64) -> UInt64 {
        guard now >= firstSend, end > firstSend else { return 0 }
        let due = dueCountFromStart(through: min(now, end - 1))
        return due > nextIndex ? due - nextIndex : 0
    }

    /// How many calls the whole schedule intends (those before `end`).
    var totalCalls: UInt64 {
        guard end > firstSend else { return 0 }
        return dueCountFromStart(through: end - 1)
    }

    /// How many calls are intended at or before `last` (≥ firstSend).
    private func dueCountFromStart(through last: UInt64) -> UInt64 {
        var count = UInt64((Double(last - firstSend) / interval).rounded(.down)) + 1
        while count > 0, intendedTime(ofCall: count - 1) > last { count -= 1 }
        while intendedTime(ofCall: count) <= last { count += 1 }
        return count
    }
}
