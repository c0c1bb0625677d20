import BrokerModel
import BrokerPolicy
@testable import BrokerStore
import Foundation
import Testing

/// Prints what daily statistics cost over two sources' minute-level steps, merged and not.
/// Run on request: HEALTHBROKER_MERGE_TIMING=DAYS swift test --skip-build --filter SourceMergeTimingTests
@Suite("Source merge timing", .enabled(if: ProcessInfo.processInfo.environment["HEALTHBROKER_MERGE_TIMING"] != nil))
struct SourceMergeTimingTests {
    @Test func dailyStatisticsOverTwoSourcesMinuteSteps() throws {
        let days = Int(ProcessInfo.processInfo.environment["HEALTHBROKER_MERGE_TIMING"] ?? "") ?? 30
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        let minute: Int64 = 60_000_000
        let day: Int64 = 1_440 * minute
        for (offset, app) in ["com.example.watch", "com.example.phone"].enumerated() {
            var batch: [Sample] = []
            for index in 0..<(days * 1_440) {
                // The phone's minutes are shifted by 20 s: every one overlaps two of the watch's.
                let start = Int64(index) * minute + Int64(offset) * 20_000_000
                batch.append(Sample(uuid: UUID().uuidString.lowercased(), type: .stepCount, startMicros: start, endMicros: start + minute,
                                    value: .quantity(Quantity(Double(index % 90), "count"))))
                if batch.count == 10_000 {
                    _ = try store.saveSamples(batch, sourceAppID: app, now: 1)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { _ = try store.saveSamples(batch, sourceAppID: app, now: 1) }
        }
        try store.setSourcePriority(of: .stepCount, appIDs: ["com.example.watch"])
        let boundaries = (0...days).map { Int64($0) * day }
        func time(_ merge: Bool) throws -> (Double, [StatisticsBucket]) {
            var best = Double.infinity
            var result: [StatisticsBucket] = []
            for _ in 0..<3 {
                let clock = ContinuousClock.now
                result = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries, mergeSources: merge)
                let elapsed = ContinuousClock.now - clock
                best = min(best, Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
            return (best, result)
        }
        let (plain, sums) = try time(false)
        let (merged, mergedSums) = try time(true)
        // The sweep alone, over items of the same shape.
        var items: [SourceMerge.Item] = []
        for offset in 0..<2 {
            for index in 0..<(days * 1_440) {
                let start = Int64(index) * minute + Int64(offset) * 20_000_000
                items.append(SourceMerge.Item(startMicros: start, endMicros: start + minute, value: 1, rank: offset))
            }
        }
        let clock = ContinuousClock.now
        _ = SourceMerge.buckets(items, boundaries: boundaries)
        let sweep = ContinuousClock.now - clock
        print("merge timing: the sweep alone \(sweep)")
        print("merge timing: \(days) days, \(2 * days * 1_440) samples from two sources: SQL sum \(String(format: "%.1f", plain)) ms, merged \(String(format: "%.1f", merged)) ms")
        #expect(sums.count == days && mergedSums.count == days)
        // Merged, each day is about the watch's alone (the phone adds only its last 20 s).
        #expect(mergedSums[1].sum! < sums[1].sum!)
    }
}
