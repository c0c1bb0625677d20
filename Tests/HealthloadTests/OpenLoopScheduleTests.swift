@testable import healthload
import Testing

/// Open-loop pacing: intended send times, backlog, and a stall showing up as latency.
@Suite("Open-loop schedule")
struct OpenLoopScheduleTests {
    @Test func intendedTimesAreEvenlySpacedFromTheStart() {
        let schedule = OpenLoopSchedule(start: 1_000_000, end: 2_000_000_000, callsPerSecond: 1_000)
        #expect(schedule.intendedTime(ofCall: 0) == 1_000_000)
        #expect(schedule.intendedTime(ofCall: 1) == 2_000_000)
        #expect(schedule.intendedTime(ofCall: 999) == 1_000_000_000)
        #expect(schedule.totalCalls == 1_999)
    }

    @Test func aCallIsTakenOnlyOnceItIsDue() {
        var schedule = OpenLoopSchedule(start: 1_000, end: 1_000_000_000, callsPerSecond: 1_000)
        #expect(schedule.takeDue(now: 999) == nil)
        #expect(schedule.takeDue(now: 1_000) == 1_000)
        #expect(schedule.takeDue(now: 1_000) == nil)
        #expect(schedule.takeDue(now: 1_001_000) == 1_001_000)
        #expect(schedule.nextIntendedTime == 2_001_000)
    }

    @Test func afterAStallEveryHeldBackCallKeepsItsIntendedTime() {
        var schedule = OpenLoopSchedule(start: 0, end: 1_000_000_000, callsPerSecond: 10_000)  // every 100 µs
        #expect(schedule.takeDue(now: 0) == 0)
        // The sender stalls for 5 ms: 50 calls are now due, each with its own intended time.
        let now: UInt64 = 5_000_000
        #expect(schedule.dueCount(now: now) == 50)
        var taken: [UInt64] = []
        while let intended = schedule.takeDue(now: now) { taken.append(intended) }
        #expect(taken.count == 50)
        #expect(taken.first == 100_000)
        #expect(taken.last == 5_000_000)
        // Latency counts from the intended time: the first held-back call waited the whole stall.
        #expect(now - taken[0] == 4_900_000)
        #expect(schedule.dueCount(now: now) == 0)
    }

    @Test func theScheduleEndsAtTheWindowEnd() {
        var schedule = OpenLoopSchedule(start: 0, end: 1_000_000, callsPerSecond: 10_000)
        var count = 0
        while schedule.takeDue(now: .max) != nil { count += 1 }
        #expect(count == 10)
        #expect(schedule.totalCalls == 10)
        #expect(schedule.nextIntendedTime == nil)
    }

    @Test func phasesInterleaveConnectionsSharingARate() {
        let first = OpenLoopSchedule(start: 0, end: 1_000_000_000, callsPerSecond: 1_000, phase: 0)
        let second = OpenLoopSchedule(start: 0, end: 1_000_000_000, callsPerSecond: 1_000, phase: 0.5)
        #expect(first.intendedTime(ofCall: 0) == 0)
        #expect(second.intendedTime(ofCall: 0) == 500_000)
        #expect(second.intendedTime(ofCall: 1) == 1_500_000)
    }

    @Test func aServerStallShowsUpAsLatencyForEveryCallItHeldBack() {
        // 1,000 calls/s for 1 s, one call in flight at most, 50 µs service, and the server stalls for
        // 20 ms at 500 ms. Measured from intended times, ~20 calls see most of the stall; measured
        // from actual send times (coordinated omission) only one would.
        var schedule = OpenLoopSchedule(start: 0, end: 1_000_000_000, callsPerSecond: 1_000)
        let service: UInt64 = 50_000
        let stall: Range<UInt64> = 500_000_000..<520_000_000
        var now: UInt64 = 0
        var fromIntended = LatencyHistogram()
        var fromSend = LatencyHistogram()
        while let next = schedule.nextIntendedTime {
            now = max(now, next)
            guard let intended = schedule.takeDue(now: now) else { continue }
            let send = now
            var begin = send
            if stall.contains(begin) { begin = stall.upperBound }
            let done = begin + service
            fromIntended.record(done - intended)
            fromSend.record(done - send)
            now = done  // depth 1: the next call goes out when this one is answered
        }
        #expect(fromIntended.totalCount == 1_000)
        let slowFromIntended = fromIntended.totalCount - fromIntended.count(atOrBelow: 1_000_000)
        let slowFromSend = fromSend.totalCount - fromSend.count(atOrBelow: 1_000_000)
        #expect(slowFromIntended >= 19)
        #expect(slowFromSend == 1)
        #expect(fromIntended.value(atPercentile: 99) > 1_000_000)
        #expect(fromSend.value(atPercentile: 99) < 100_000)
    }
}
