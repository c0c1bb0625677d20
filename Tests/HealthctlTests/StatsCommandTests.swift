import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct StatsCommandTests {
    @Test func intervalsByName() {
        // "none" is the interval, not a missing one.
        #expect(StatsCommand.interval(named: "none") == StatisticsInterval.none)
        #expect(StatsCommand.interval(named: "Day") == .day)
        #expect(StatsCommand.interval(named: "month") == .month)
        #expect(StatsCommand.interval(named: "fortnight") == nil)
    }

    @Test func aDateIsMidnightInTheZoneAndAnInstantIsItself() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let june1: Int64 = 1_780_272_000_000_000  // 2026-06-01T00:00:00Z
        let hour: Int64 = 3_600_000_000
        #expect(StatsCommand.instant("2026-06-01", in: utc) == june1)
        #expect(StatsCommand.instant("2026-06-01", in: tokyo) == june1 - 9 * hour)
        #expect(StatsCommand.instant("2026-06-01T12:00:00Z", in: tokyo) == june1 + 12 * hour)
        #expect(StatsCommand.instant("2026-02-30", in: utc) == nil)
    }

    @Test func tableShowsSumsOrTheDiscreteValues() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let day: Int64 = 86_400_000_000
        let sums = StatisticsResult(unit: "count", buckets: [
            StatisticsBucket(startMicros: 1_780_272_000_000_000, endMicros: 1_780_272_000_000_000 + day, sampleCount: 3, sum: 35),
        ])
        #expect(TextOutput.statisticsTable(sums, type: .stepCount, options: .sum, zone: utc) == """
            START (UTC)       END               SAMPLES  SUM (count)
            2026-06-01 00:00  2026-06-02 00:00  3        35
            """)
        let discrete = StatisticsResult(unit: "count/min", buckets: [
            StatisticsBucket(startMicros: 0, endMicros: day, sampleCount: 2, average: 61.5, minimum: 50, maximum: 73),
        ])
        let lines = TextOutput.statisticsTable(discrete, type: .heartRate, options: [.average, .minimum, .maximum], zone: utc)
            .split(separator: "\n")
        #expect(lines.first?.hasSuffix("AVERAGE (count/min)  MINIMUM  MAXIMUM") == true)
        #expect(lines.last?.hasSuffix("61.50                50       73") == true)
        #expect(TextOutput.statisticsTable(StatisticsResult(unit: "count", buckets: []), type: .stepCount, options: .sum, zone: utc)
            == "no stepCount samples in the range")
    }
}
