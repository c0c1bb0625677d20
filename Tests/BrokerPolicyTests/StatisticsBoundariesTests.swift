@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("StatisticsRules.boundaries")
struct StatisticsBoundariesTests {
    func boundaries(_ start: Int64?, _ end: Int64?, _ interval: StatisticsInterval, anchor: Int64 = 0, zone: String = "",
                    fallbackStart: Int64 = 0, fallbackEnd: Int64 = 0) throws -> [Int64] {
        let query = StatisticsQuery(type: .stepCount, predicate: SamplePredicate(startMicros: start, endMicros: end),
                                    options: .sum, interval: interval, anchorMicros: anchor, timeZone: zone)
        return try StatisticsRules.boundaries(for: query, fallbackStart: fallbackStart, fallbackEnd: fallbackEnd)
    }

    /// Bucket lengths in hours.
    func hours(_ bounds: [Int64]) -> [Double] {
        zip(bounds, bounds.dropFirst()).map { Double($1 - $0) / Double(hourMicros) }
    }

    @Test func noIntervalIsTheWholeRange() throws {
        #expect(try boundaries(jan2020, jan2026, .none) == [jan2020, jan2026])
        #expect(try boundaries(nil, nil, .none, fallbackStart: 5, fallbackEnd: 9) == [5, 9])
        #expect(try boundaries(jan2020, nil, .none, fallbackStart: 5, fallbackEnd: jan2026) == [jan2020, jan2026])
        #expect(try boundaries(nil, jan2026, .none, fallbackStart: jan2020, fallbackEnd: 9) == [jan2020, jan2026])
        // The time zone is still checked.
        #expect(invalidArgumentMessage { _ = try boundaries(0, 1, .none, zone: "Nowhere/Special") }.hasPrefix("unknown time zone"))
    }

    @Test func utcDays() throws {
        let bounds = try boundaries(utc("2026-01-01"), utc("2026-01-04"), .day)
        #expect(bounds == [utc("2026-01-01"), utc("2026-01-02"), utc("2026-01-03"), utc("2026-01-04")])
    }

    @Test func clippedToTheRange() throws {
        let bounds = try boundaries(utc("2026-01-01T10:00:00Z"), utc("2026-01-03T05:00:00Z"), .day)
        #expect(bounds == [utc("2026-01-01T10:00:00Z"), utc("2026-01-02"), utc("2026-01-03"), utc("2026-01-03T05:00:00Z")])
        // Inside a single interval: just the range.
        #expect(try boundaries(utc("2026-01-01T10:00:00Z"), utc("2026-01-01T12:00:00Z"), .day)
                == [utc("2026-01-01T10:00:00Z"), utc("2026-01-01T12:00:00Z")])
        // An empty range is one empty bucket.
        #expect(try boundaries(jan2026, jan2026, .day) == [jan2026, jan2026])
    }

    @Test func berlinSpringForwardDayIs23Hours() throws {
        // Local midnights 2026-03-28, 29 (clocks go 02:00 → 03:00), 30 and 31.
        let bounds = try boundaries(utc("2026-03-27T23:00:00Z"), utc("2026-03-30T22:00:00Z"), .day,
                                    anchor: utc("2026-01-01T23:00:00Z"), zone: "Europe/Berlin")
        #expect(bounds == [utc("2026-03-27T23:00:00Z"), utc("2026-03-28T23:00:00Z"), utc("2026-03-29T22:00:00Z"), utc("2026-03-30T22:00:00Z")])
        #expect(hours(bounds) == [24, 23, 24])
        // The same local day per hour: 23 buckets.
        let perHour = try boundaries(utc("2026-03-28T23:00:00Z"), utc("2026-03-29T22:00:00Z"), .hour, zone: "Europe/Berlin")
        #expect(perHour.count == 24)
    }

    @Test func berlinFallBackDayIs25Hours() throws {
        let bounds = try boundaries(utc("2026-10-23T22:00:00Z"), utc("2026-10-26T23:00:00Z"), .day,
                                    anchor: utc("2026-01-01T23:00:00Z"), zone: "Europe/Berlin")
        #expect(bounds == [utc("2026-10-23T22:00:00Z"), utc("2026-10-24T22:00:00Z"), utc("2026-10-25T23:00:00Z"), utc("2026-10-26T23:00:00Z")])
        #expect(hours(bounds) == [24, 25, 24])
        let perHour = try boundaries(utc("2026-10-24T22:00:00Z"), utc("2026-10-25T23:00:00Z"), .hour, zone: "Europe/Berlin")
        #expect(perHour.count == 26)
    }

    @Test func anchorAtSixInTheMorningLocal() throws {
        // Anchor 2020-01-01 06:00 CET; a summer range gets boundaries at 06:00 CEST (04:00 UTC).
        let anchor = utc("2020-01-01T05:00:00Z")
        let bounds = try boundaries(utc("2026-07-01T00:00:00Z"), utc("2026-07-03T00:00:00Z"), .day, anchor: anchor, zone: "Europe/Berlin")
        #expect(bounds == [utc("2026-07-01T00:00:00Z"), utc("2026-07-01T04:00:00Z"), utc("2026-07-02T04:00:00Z"), utc("2026-07-03T00:00:00Z")])
        // An anchor after the range aligns the same way.
        let future = try boundaries(utc("2026-07-01T00:00:00Z"), utc("2026-07-03T00:00:00Z"), .day,
                                    anchor: utc("2030-12-01T05:00:00Z"), zone: "Europe/Berlin")
        #expect(future == bounds)
    }

    @Test func newYorkWeeksAcrossDST() throws {
        // Mondays at local midnight; US clocks spring forward on Sunday 2026-03-08.
        let mondayEST = utc("2026-03-02T05:00:00Z")
        let bounds = try boundaries(mondayEST, utc("2026-03-23T04:00:00Z"), .week, anchor: mondayEST, zone: "America/New_York")
        #expect(bounds == [mondayEST, utc("2026-03-09T04:00:00Z"), utc("2026-03-16T04:00:00Z"), utc("2026-03-23T04:00:00Z")])
        #expect(hours(bounds) == [167, 168, 168])
    }

    @Test func weeksKeepTheAnchorsWeekday() throws {
        // Anchor on Sunday 2026-01-04 00:00 UTC; a range from Wednesday to Wednesday.
        let bounds = try boundaries(utc("2026-01-07"), utc("2026-01-21"), .week, anchor: utc("2026-01-04"))
        #expect(bounds == [utc("2026-01-07"), utc("2026-01-11"), utc("2026-01-18"), utc("2026-01-21")])
    }

    @Test func monthsOfDifferentLengths() throws {
        let bounds = try boundaries(utc("2026-01-01"), utc("2026-05-01"), .month, anchor: utc("2026-01-01"))
        #expect(bounds == [utc("2026-01-01"), utc("2026-02-01"), utc("2026-03-01"), utc("2026-04-01"), utc("2026-05-01")])
        #expect(hours(bounds).map { $0 / 24 } == [31, 28, 31, 30])
        let leap = try boundaries(utc("2024-02-01"), utc("2024-03-01"), .month, anchor: utc("2000-01-01"))
        #expect(hours(leap) == [696])  // 29 days
    }

    @Test func monthsAnchoredOnThe31stClamp() throws {
        let bounds = try boundaries(utc("2026-02-01"), utc("2026-05-01"), .month, anchor: utc("2026-01-31"))
        #expect(bounds == [utc("2026-02-01"), utc("2026-02-28"), utc("2026-03-31"), utc("2026-04-30"), utc("2026-05-01")])
    }

    @Test func berlinMonthsAcrossDST() throws {
        let bounds = try boundaries(utc("2026-02-28T23:00:00Z"), utc("2026-04-30T22:00:00Z"), .month,
                                    anchor: utc("2026-01-31T23:00:00Z"), zone: "Europe/Berlin")
        #expect(bounds == [utc("2026-02-28T23:00:00Z"), utc("2026-03-31T22:00:00Z"), utc("2026-04-30T22:00:00Z")])
        #expect(hours(bounds) == [743, 720])  // 31 days less an hour, 30 days
    }

    @Test func hoursAlignToTheAnchorsMinute() throws {
        let bounds = try boundaries(utc("2026-01-01T10:00:00Z"), utc("2026-01-01T13:00:00Z"), .hour, anchor: utc("2020-01-01T00:30:00Z"))
        #expect(bounds == [utc("2026-01-01T10:00:00Z"), utc("2026-01-01T10:30:00Z"), utc("2026-01-01T11:30:00Z"),
                           utc("2026-01-01T12:30:00Z"), utc("2026-01-01T13:00:00Z")])
        // India is +05:30: local whole hours are at :30 UTC.
        let india = try boundaries(utc("2026-01-01T10:30:00Z"), utc("2026-01-01T12:30:00Z"), .hour,
                                   anchor: utc("2026-01-01T18:30:00Z"), zone: "Asia/Kolkata")
        #expect(india == [utc("2026-01-01T10:30:00Z"), utc("2026-01-01T11:30:00Z"), utc("2026-01-01T12:30:00Z")])
    }

    @Test func subSecondAnchorsKeepTheirFraction() throws {
        let anchor = utc("2026-01-01T00:00:00.5Z")
        let bounds = try boundaries(utc("2026-01-02"), utc("2026-01-04"), .day, anchor: anchor)
        #expect(bounds == [utc("2026-01-02"), utc("2026-01-02T00:00:00.5Z"), utc("2026-01-03T00:00:00.5Z"), utc("2026-01-04")])
        let before = try boundaries(utc("2025-12-30"), utc("2025-12-31"), .day, anchor: anchor - 1_000_000)
        #expect(before == [utc("2025-12-30"), utc("2025-12-30T23:59:59.5Z"), utc("2025-12-31")])
    }

    @Test func aRangeStartingOnABoundaryHasNoDuplicate() throws {
        let bounds = try boundaries(utc("2026-03-01"), utc("2026-03-03"), .day)
        #expect(bounds == [utc("2026-03-01"), utc("2026-03-02"), utc("2026-03-03")])
    }

    @Test(arguments: [StatisticsInterval.hour, .day, .week, .month])
    func tenYearsInNewYorkAreStrictlyIncreasingAndCovering(_ interval: StatisticsInterval) throws {
        let start = utc("2020-01-01T05:00:00Z") + 12_345
        let end = utc("2030-01-01T05:00:00Z") - 6_789
        let bounds = try boundaries(start, end, interval, anchor: utc("2021-06-15T10:15:00Z"), zone: "America/New_York")
        #expect(bounds.first == start && bounds.last == end)
        #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 })
        let lengths = hours(Array(bounds.dropFirst().dropLast()))
        switch interval {
        case .hour: #expect(lengths.allSatisfy { $0 == 1 })
        case .day: #expect(lengths.allSatisfy { [23, 24, 25].contains($0) } && lengths.contains(23) && lengths.contains(25))
        case .week: #expect(lengths.allSatisfy { [167, 168, 169].contains($0) })
        default: #expect(lengths.allSatisfy { (671.0...745.0).contains($0) })  // 28 days − 1 h … 31 days + 1 h
        }
    }

    @Test func errors() {
        #expect(invalidArgumentMessage { _ = try boundaries(jan2026, jan2020, .day) }.hasPrefix("statistics: start"))
        #expect(invalidArgumentMessage { _ = try boundaries(nil, nil, .none, fallbackStart: 2, fallbackEnd: 1) }.hasPrefix("statistics: start"))
        #expect(invalidArgumentMessage { _ = try boundaries(jan2020, jan2026, .day, zone: "Europe/Atlantis") }.hasPrefix("unknown time zone"))
        #expect(invalidArgumentMessage { _ = try boundaries(utc("1970-01-01"), jan2026, .hour) }.contains("100000 hours"))
        #expect(invalidArgumentMessage { _ = try boundaries(.min, .max, .month) }.contains("100000 months"))
    }
}
