import BrokerModel
import Foundation
import HealthBrokerClient

extension UIAPI {
    /// One day (or interval) of a chart: what a statistics call returned for it, never a sample.
    struct Bucket: Codable, Equatable {
        /// The local date the bucket starts (`2026-11-17`).
        var day: String
        /// Its start (ms).
        var start: Int64
        var count: UInt64
        var sum: Double?
        var average: Double?
        var min: Double?
        var max: Double?
    }

    /// One type's chart.
    struct Series: Codable, Equatable {
        var type: UIJSON.TypeInfo
        var unit: String
        var buckets: [Bucket]
    }

    /// The Data page.
    struct StatisticsReply: Codable {
        var days: Int
        var series: [Series]
    }

    /// Daily statistics of every quantity type over the last `days` local days (today included),
    /// from the broker's AdminStatistics over every source: sums for cumulative types, average,
    /// minimum and maximum for discrete ones. Types with no samples in the range are left out.
    func statistics(days: Int) async throws(BrokerError) -> StatisticsReply {
        let zoneName = StatsCommand.localZoneName()
        let zone = TimeZone(identifier: zoneName) ?? .gmt
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: Date())
        let first = calendar.date(byAdding: .day, value: -(days - 1), to: today) ?? today
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) ?? today
        let from = Int64((first.timeIntervalSince1970 * 1_000_000).rounded())
        let to = Int64((tomorrow.timeIntervalSince1970 * 1_000_000).rounded())
        var series: [Series] = []
        for descriptor in TypeCatalogue.all where descriptor.kind == .quantity {
            let options: StatisticsOptions = descriptor.aggregation == .cumulative ? .sum : [.average, .minimum, .maximum]
            let query = StatisticsQuery(
                type: descriptor.type, predicate: SamplePredicate(startMicros: from, endMicros: to), options: options,
                interval: .day, anchorMicros: from, timeZone: zoneName == "UTC" ? "" : zoneName)
            let result = try await link.call { admin throws(BrokerError) in try await admin.statistics(query) }
            guard !result.buckets.isEmpty else { continue }
            let buckets = result.buckets.map { bucket in
                Bucket(
                    day: String(LocalTime.dateOrInstant(micros: bucket.startMicros).prefix(10)), start: bucket.startMicros / 1_000,
                    count: bucket.sampleCount, sum: bucket.sum, average: bucket.average, min: bucket.minimum, max: bucket.maximum)
            }
            series.append(Series(type: UIJSON.TypeInfo(descriptor.type), unit: result.unit, buckets: buckets))
        }
        return StatisticsReply(days: days, series: series)
    }
}
