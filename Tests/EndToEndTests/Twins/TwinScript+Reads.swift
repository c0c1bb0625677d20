import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// The reading parts of the twins script.
extension TwinScript {
    /// Every predicate kind, open bounds, sorts, limits, page sizes and credit.
    static func queries(_ s: TwinStore) async throws {
        let optionSets: [(String, SamplePredicate.Options)] = [("none", []), ("strictStart", .strictStartDate), ("strictEnd", .strictEndDate), ("both", [.strictStartDate, .strictEndDate])]
        for type in TwinFixtures.types {
            for (name, options) in optionSets {
                try await s.call("Query \(type.identifier) window \(name)", .query(SampleQuery(type: type, predicate: windowed(type, options))))
            }
            try await s.call("Query \(type.identifier) open start", .query(SampleQuery(type: type, predicate: SamplePredicate(endMicros: base + 6 * hour))))
            try await s.call("Query \(type.identifier) open end", .query(SampleQuery(type: type, predicate: SamplePredicate(startMicros: base + 6 * hour, options: .strictStartDate))))
            try await s.call("Query \(type.identifier) everything", .query(SampleQuery(type: type)))
        }
        for key in [SampleSort.Key.startDate, .endDate] {
            for descending in [false, true] {
                let sort = SampleSort(key: key, descending: descending)
                try await s.call("Query steps sorted \(key) descending \(descending)", .query(SampleQuery(type: .stepCount, sort: sort)))
                try await s.call("Query steps sorted \(key) descending \(descending) limit 3", .query(SampleQuery(type: .stepCount, limit: 3, sort: sort)))
            }
        }
        try await s.call("Query heart rate limit 1", .query(SampleQuery(type: .heartRate, limit: 1)))
        try await s.call("Query steps page size 2, credit 1", .query(SampleQuery(type: .stepCount, pageSize: 2)), credit: 1, grant: 1)
        try await s.call("Query steps page size 3, credit 2", .query(SampleQuery(type: .stepCount, pageSize: 3)), credit: 2, grant: 2)
        try await s.call("Query heart rate page size 1, limit 4", .query(SampleQuery(type: .heartRate, limit: 4, pageSize: 1)), credit: 1, grant: 1)
        try await s.call("Query sleep page size 1, window", .query(SampleQuery(type: .sleepAnalysis, predicate: windowed(.sleepAnalysis), pageSize: 1)))
        try await s.call("Query heart rate in count/s", .query(SampleQuery(type: .heartRate, unit: "count/s")))
        try await s.call("Query a range with no X sample", .query(SampleQuery(type: .stepCount, predicate: SamplePredicate(startMicros: base + 100 * 24 * hour, endMicros: base + 101 * 24 * hour))))
    }

    /// First calls, quiet follow-ups, follow-ups after other apps act, and after X acts.
    static func anchoredQueries(_ s: TwinStore) async throws {
        for type in TwinFixtures.types {
            try await s.anchored("Anchored \(type.identifier) first", AnchoredQuery(type: type), keep: "0-\(type.identifier)")
        }
        try await s.anchored("Anchored steps window first", AnchoredQuery(type: .stepCount, predicate: windowed(.stepCount)), keep: "w0")
        try await s.anchored("Anchored steps limit 3 first", AnchoredQuery(type: .stepCount, limit: 3), keep: "l0")
        try await s.anchored("Anchored steps limit 3 second", AnchoredQuery(type: .stepCount, limit: 3), from: "l0", keep: "l1")
        try await s.anchored("Anchored steps quiet", AnchoredQuery(type: .stepCount), from: "0-\(ObjectType.stepCount.identifier)", keep: "s1")
        try await s.othersWriteAndDelete(generation: 1)
        for type in TwinFixtures.types {
            try await s.anchored("Anchored \(type.identifier) after other apps acted", AnchoredQuery(type: type), from: "0-\(type.identifier)", keep: "1-\(type.identifier)")
        }
        try await s.anchored("Anchored steps window after other apps acted", AnchoredQuery(type: .stepCount, predicate: windowed(.stepCount)), from: "w0", keep: "w1")
        try await s.anchored("Anchored steps limit 3 after other apps acted", AnchoredQuery(type: .stepCount, limit: 3), from: "l1")
        try await s.call("X saves two more steps", .save([TwinFixtures.xLater(0), TwinFixtures.xLater(1)]))
        try await s.call("X deletes one of its steps", .delete(uuids: [TwinFixtures.xSamples[0].uuid], type: nil, predicate: nil))
        try await s.othersWriteAndDelete(generation: 2)
        try await s.anchored("Anchored steps after X acted", AnchoredQuery(type: .stepCount), from: "1-\(ObjectType.stepCount.identifier)", keep: "2")
        try await s.anchored("Anchored steps from the first anchor", AnchoredQuery(type: .stepCount), from: "0-\(ObjectType.stepCount.identifier)")
        try await s.anchored("Anchored steps window after X acted", AnchoredQuery(type: .stepCount, predicate: windowed(.stepCount)), from: "w1")
        try await s.anchored("Anchored steps quiet again", AnchoredQuery(type: .stepCount), from: "2")
        try await s.anchored("Anchored heart rate after X acted on steps", AnchoredQuery(type: .heartRate), from: "1-\(ObjectType.heartRate.identifier)")
    }

    /// Sum, average, minimum, maximum, every interval, and a range with no X data.
    static func statistics(_ s: TwinStore) async throws {
        let window = windowed(.stepCount)
        let week = SamplePredicate(startMicros: base - 3 * 24 * hour, endMicros: base + 4 * 24 * hour)
        try await s.call("Statistics steps sum", .statistics(StatisticsQuery(type: .stepCount, predicate: window, options: .sum)))
        // Bounded: an open end would end the bucket at the broker's clock, which differs between daemons.
        let years = SamplePredicate(startMicros: base - 5 * 365 * 24 * hour, endMicros: base + 2 * 365 * 24 * hour)
        try await s.call("Statistics steps sum over years", .statistics(StatisticsQuery(type: .stepCount, predicate: years, options: .sum)))
        for interval in [StatisticsInterval.hour, .day, .week, .month] {
            try await s.call("Statistics steps sum per \(interval)", .statistics(StatisticsQuery(type: .stepCount, predicate: week, options: .sum, interval: interval, anchorMicros: base)))
        }
        try await s.call("Statistics steps per day in Berlin", .statistics(StatisticsQuery(type: .stepCount, predicate: week, options: .sum, interval: .day, anchorMicros: base, timeZone: "Europe/Berlin")))
        let discrete: [(String, StatisticsOptions)] = [("average", .average), ("minimum", .minimum), ("maximum", .maximum), ("all three", [.average, .minimum, .maximum])]
        for (name, options) in discrete {
            try await s.call("Statistics heart rate \(name)", .statistics(StatisticsQuery(type: .heartRate, predicate: window, options: options)))
        }
        try await s.call("Statistics heart rate per hour", .statistics(StatisticsQuery(type: .heartRate, predicate: window, options: [.average, .minimum, .maximum], interval: .hour, anchorMicros: base)))
        try await s.call("Statistics heart rate in count/s", .statistics(StatisticsQuery(type: .heartRate, predicate: years, options: .maximum, unit: "count/s")))
        let empty = SamplePredicate(startMicros: base + 2 * 24 * hour, endMicros: base + 3 * 24 * hour)
        try await s.call("Statistics heart rate with no X data", .statistics(StatisticsQuery(type: .heartRate, predicate: empty, options: .average)))
        try await s.call("Statistics steps with no X data", .statistics(StatisticsQuery(type: .stepCount, predicate: empty, options: .sum)))
        try await s.call("Statistics steps per day with no X data", .statistics(StatisticsQuery(type: .stepCount, predicate: empty, options: .sum, interval: .day, anchorMicros: base)))
    }

    /// An Observe stream silent while only other apps write, firing when X writes.
    static func observing(_ s: TwinStore) async throws {
        try await s.startObserve(TwinFixtures.types)
        try await s.othersWriteAndDelete(generation: 4, count: 60)
        try await s.observed("Observe while other apps write", expectEvent: false)
        try await s.call("X saves a step", .save([TwinFixtures.xLater(2)]))
        try await s.observed("Observe after X saved", expectEvent: true)
        try await s.call("X deletes it again", .delete(uuids: [TwinFixtures.xLater(2).uuid], type: nil, predicate: nil))
        try await s.observed("Observe after X deleted", expectEvent: true)
    }
}
