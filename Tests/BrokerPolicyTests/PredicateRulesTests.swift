@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("PredicateRules.matches and validate")
struct PredicateRulesTests {
    // The range [S, E): 2026-01-01 00:00 to 2026-01-02 00:00 UTC.
    let rangeStart = jan2026
    let rangeEnd = jan2026 + day

    func matches(_ options: SamplePredicate.Options, _ start: Int64, _ end: Int64) -> Bool {
        PredicateRules.matches(SamplePredicate(startMicros: rangeStart, endMicros: rangeEnd, options: options), startMicros: start, endMicros: end)
    }

    @Test func noOptionsIsOverlapWithAnInclusiveStart() {
        let S = rangeStart, E = rangeEnd
        #expect(matches([], S - hourMicros, S), "a sample ending exactly at the range start is in")
        #expect(!matches([], S - 2 * hourMicros, S - 1), "one ending just before the start is out")
        #expect(!matches([], E, E + hourMicros), "a sample starting exactly at the range end is out")
        #expect(matches([], E - 1, E + hourMicros), "one starting just before the end is in")
        #expect(matches([], S, S) && !matches([], E, E), "instants at the start are in, at the end out")
        #expect(matches([], S - day, E + day), "a sample spanning the range is in")
        #expect(matches([], S + hourMicros, S + 2 * hourMicros))
    }

    @Test func strictStartDate() {
        let S = rangeStart, E = rangeEnd
        #expect(matches(.strictStartDate, S, S + hourMicros), "starting exactly at the range start is in")
        #expect(!matches(.strictStartDate, S - 1, S + hourMicros), "starting before is out even if it ends inside")
        #expect(!matches(.strictStartDate, S - hourMicros, S))
        #expect(matches(.strictStartDate, E - 1, E + day), "starting inside is in even if it ends after the range")
        #expect(!matches(.strictStartDate, E, E), "starting exactly at the range end is out")
    }

    @Test func strictEndDate() {
        let S = rangeStart, E = rangeEnd
        #expect(matches(.strictEndDate, S - day, S), "ending exactly at the range start is in")
        #expect(!matches(.strictEndDate, S - day, S - 1))
        #expect(matches(.strictEndDate, S - day, E - 1), "ending inside is in even if it starts before the range")
        #expect(!matches(.strictEndDate, S + hourMicros, E), "ending exactly at the range end is out")
        #expect(!matches(.strictEndDate, S, E + 1))
    }

    @Test func strictStartAndEndDate() {
        let S = rangeStart, E = rangeEnd
        let both: SamplePredicate.Options = [.strictStartDate, .strictEndDate]
        #expect(matches(both, S, E - 1))
        #expect(matches(both, S, S))
        #expect(!matches(both, S, E), "the end must be before the range end")
        #expect(!matches(both, S - 1, E - 1), "the start must be in the range")
        #expect(!matches(both, S - hourMicros, S), "unlike strictEndDate alone")
        #expect(!matches(both, E - 1, E + 1), "unlike strictStartDate alone")
    }

    @Test func openBounds() {
        let S = rangeStart, E = rangeEnd
        let noStart = SamplePredicate(endMicros: E)
        #expect(PredicateRules.matches(noStart, startMicros: .min, endMicros: .min))
        #expect(PredicateRules.matches(noStart, startMicros: E - 1, endMicros: .max))
        #expect(!PredicateRules.matches(noStart, startMicros: E, endMicros: E))
        #expect(PredicateRules.matches(SamplePredicate(endMicros: E, options: .strictEndDate), startMicros: 0, endMicros: E - 1))
        #expect(!PredicateRules.matches(SamplePredicate(endMicros: E, options: .strictEndDate), startMicros: 0, endMicros: E))

        let noEnd = SamplePredicate(startMicros: S)
        #expect(PredicateRules.matches(noEnd, startMicros: .max, endMicros: .max))
        #expect(PredicateRules.matches(noEnd, startMicros: S - day, endMicros: S))
        #expect(!PredicateRules.matches(noEnd, startMicros: S - day, endMicros: S - 1))
        #expect(!PredicateRules.matches(SamplePredicate(startMicros: S, options: .strictStartDate), startMicros: S - 1, endMicros: .max))

        for options: SamplePredicate.Options in [[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]] {
            let all = SamplePredicate(options: options)
            #expect(PredicateRules.matches(all, startMicros: .min, endMicros: .min))
            #expect(PredicateRules.matches(all, startMicros: .max, endMicros: .max))
            #expect(PredicateRules.matches(all, startMicros: 0, endMicros: 1))
        }
    }

    @Test func validate() throws {
        try PredicateRules.validate(.all)
        try PredicateRules.validate(SamplePredicate(startMicros: rangeStart, endMicros: rangeStart))
        try PredicateRules.validate(SamplePredicate(startMicros: rangeEnd))
        try PredicateRules.validate(SamplePredicate(endMicros: rangeStart))
        try PredicateRules.validate(SamplePredicate(startMicros: rangeStart, endMicros: rangeEnd, options: [.strictStartDate, .strictEndDate]))

        let reversed = invalidArgumentMessage { try PredicateRules.validate(SamplePredicate(startMicros: rangeEnd, endMicros: rangeStart)) }
        #expect(reversed == "predicate: start 2026-01-02T00:00:00Z is after end 2026-01-01T00:00:00Z")
        let unknown = invalidArgumentMessage { try PredicateRules.validate(SamplePredicate(options: SamplePredicate.Options(rawValue: 5))) }
        #expect(unknown.contains("0x4"))
    }
}

@Suite("PredicateRules.readable")
struct ReadableTests {
    let authorized = jan2026  // B
    let me = "com.example.reader"
    let other = "com.example.writer"

    func readable(_ start: Int64, _ end: Int64, source: String, scope: ReadScope) -> Bool {
        _ = start  // only the end date decides; the start is here to make the cases read as samples
        return PredicateRules.readable(endMicros: end, sourceAppID: source, by: me, scope: scope)
    }

    @Test func limitedReadClampsOnTheEndDate() {
        let B = authorized
        #expect(readable(B - hourMicros, B + hourMicros, source: other, scope: .from(B)), "B−1h…B+1h is readable")
        #expect(!readable(B - 2 * hourMicros, B - hourMicros, source: other, scope: .from(B)), "B−2h…B−1h is not")
        #expect(readable(B - hourMicros, B, source: other, scope: .from(B)), "ending exactly at B is readable")
        #expect(!readable(B - hourMicros, B - 1, source: other, scope: .from(B)))
        #expect(readable(B + day, B + day, source: other, scope: .from(B)))
    }

    @Test func ownSamplesAreAlwaysReadableOnceAsked() {
        let B = authorized
        #expect(readable(B - 2 * hourMicros, B - hourMicros, source: me, scope: .from(B)))
        #expect(readable(B - 2 * hourMicros, B - hourMicros, source: me, scope: .ownSamplesOnly))
        #expect(readable(B, B + hourMicros, source: me, scope: .ownSamplesOnly))
    }

    @Test func deniedSeesOnlyOwnSamples() {
        #expect(!readable(authorized, authorized + hourMicros, source: other, scope: .ownSamplesOnly))
        #expect(!readable(0, .max, source: "", scope: .ownSamplesOnly))
    }

    @Test func notDeterminedSeesNothing() {
        #expect(!readable(authorized, authorized + hourMicros, source: me, scope: .notDetermined))
        #expect(!readable(authorized, authorized + hourMicros, source: other, scope: .notDetermined))
    }

    @Test func anEmptyAppIDOwnsNothing() {
        #expect(!PredicateRules.readable(endMicros: 0, sourceAppID: "", by: "", scope: .ownSamplesOnly))
        #expect(!PredicateRules.readable(endMicros: 0, sourceAppID: "", by: "", scope: .from(1)))
    }

    @Test func fullReadFromTheFloor() {
        #expect(readable(0, jan2020, source: other, scope: .from(jan2020)))
        #expect(!readable(0, jan2020 - 1, source: other, scope: .from(jan2020)))
    }
}
