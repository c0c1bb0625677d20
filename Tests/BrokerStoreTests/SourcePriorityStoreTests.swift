import BrokerModel
import BrokerPolicy
@testable import BrokerStore
import Foundation
import Testing

@Suite("Source priority in the store")
struct SourcePriorityStoreTests {
    static let watch = "com.example.watch"
    static let phone = "com.example.phone"
    static let hour: Int64 = 3_600_000_000
    static let day: Int64 = 24 * hour

    static func steps(_ n: Int, _ start: Int64, _ end: Int64, _ count: Double) -> Sample {
        Sample(uuid: String(format: "00000000-0000-4000-8000-%012d", n), type: .stepCount, startMicros: start, endMicros: end,
               value: .quantity(Quantity(count, "count")))
    }

    /// One walk counted by both: the watch 5,000 steps, the phone 4,600 over the same hour; the phone
    /// also has a stroll later that the watch did not see.
    static func walk(_ store: BrokerStore) throws {
        _ = try store.saveSamples([steps(1, 10 * hour, 11 * hour, 5_000)], sourceAppID: watch, now: 1)
        _ = try store.saveSamples([steps(2, 10 * hour, 11 * hour, 4_600), steps(3, 15 * hour, 16 * hour, 300)], sourceAppID: phone, now: 2)
    }

    static func open(_ directory: TemporaryDirectory) throws -> BrokerStore {
        try BrokerStore(dataDirectory: directory.path)
    }

    static func sums(_ buckets: [StatisticsBucket]) -> [Double?] { buckets.map(\.sum) }

    @Test func theOrderIsStoredPerTypeReplacedAndCleared() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        #expect(try store.sourcePriority(of: .stepCount) == [])
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch, Self.phone])
        try store.setSourcePriority(of: .distanceWalkingRunning, appIDs: [Self.phone])
        #expect(try store.sourcePriority(of: .stepCount) == [Self.watch, Self.phone])
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.phone, Self.watch])
        #expect(try store.sourcePriority(of: .stepCount) == [Self.phone, Self.watch])
        #expect(try store.allSourcePriorities().map(\.type) == [.distanceWalkingRunning, .stepCount])
        #expect(throws: BrokerError.self) { try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch, Self.watch]) }
        #expect(try store.sourcePriority(of: .stepCount) == [Self.phone, Self.watch])
        try store.setSourcePriority(of: .stepCount, appIDs: [])
        #expect(try store.sourcePriority(of: .stepCount) == [])
    }

    @Test func theDailyTotalIsTheFirstSourcesWhereBothCountedTheWalk() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        try Self.walk(store)
        let day = [0, Self.day]
        // Without merging (a discrete type would be so): the plain sum.
        #expect(Self.sums(try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: day)) == [9_900])
        // No order set: by app id, so com.example.phone first.
        #expect(Self.sums(try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: day, mergeSources: true)) == [4_900])
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch])
        let merged = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: day, mergeSources: true)
        #expect(Self.sums(merged) == [5_300])
        #expect(merged.map(\.sampleCount) == [3])
        // An app with full access gets the same merge.
        let app = try store.statistics(type: .stepCount, predicate: .all, scope: .from(.min), appID: "com.example.reader", boundaries: day, mergeSources: true)
        #expect(Self.sums(app) == [5_300])
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.phone, Self.watch])
        #expect(Self.sums(try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: day, mergeSources: true)) == [4_900])
        // Per hour: the walk's hour and the stroll's.
        let hours = (0...24).map { Int64($0) * Self.hour }
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch])
        let hourly = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: hours, mergeSources: true)
        #expect(hourly.map(\.startMicros) == [10 * Self.hour, 15 * Self.hour])
        #expect(Self.sums(hourly) == [5_000, 300])
    }

    @Test func aReadDeniedAppsStatisticsAreItsOwnAsIfItWereAlone() throws {
        let crowded = TemporaryDirectory()
        let alone = TemporaryDirectory()
        defer { crowded.remove(); alone.remove() }
        let store = try Self.open(crowded)
        defer { store.close() }
        try Self.walk(store)
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch])
        let solo = try Self.open(alone)
        defer { solo.close() }
        _ = try solo.saveSamples([Self.steps(2, 10 * Self.hour, 11 * Self.hour, 4_600), Self.steps(3, 15 * Self.hour, 16 * Self.hour, 300)], sourceAppID: Self.phone, now: 2)
        let hours = (0...24).map { Int64($0) * Self.hour }
        let denied = try store.statistics(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: Self.phone, boundaries: hours, mergeSources: true)
        let single = try solo.statistics(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: Self.phone, boundaries: hours, mergeSources: true)
        #expect(denied == single)
        #expect(Self.sums(denied) == [4_600, 300])
    }

    @Test func oneVisibleSourceGivesExactlyTheSQLAggregate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        // Two sources, but only the phone has samples on the second day.
        try Self.walk(store)
        _ = try store.saveSamples([Self.steps(4, Self.day + Self.hour, Self.day + 2 * Self.hour, 0.1), Self.steps(5, Self.day + Self.hour, Self.day + 3 * Self.hour, 0.2)],
                                  sourceAppID: Self.phone, now: 3)
        let second = [Self.day, 2 * Self.day]
        let plain = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: second)
        let merged = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: second, mergeSources: true)
        #expect(plain == merged)
        #expect(merged.map(\.sampleCount) == [2])
    }

    @Test func aLimitedReaderMergesTheSourcesItSeesAfterItsDate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        try Self.walk(store)
        // A second walk in the afternoon, both counting it; the watch's straddles 12:00.
        _ = try store.saveSamples([Self.steps(6, 11 * Self.hour + Self.hour / 2, 13 * Self.hour, 3_000)], sourceAppID: Self.watch, now: 3)
        _ = try store.saveSamples([Self.steps(7, 12 * Self.hour, 13 * Self.hour, 1_800)], sourceAppID: Self.phone, now: 4)
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch])
        let day = [0, Self.day]
        // The phone reads from 12:00: its own morning walk (4,600, nothing it may see covers it), the
        // watch's straddling walk (3,000) which covers its 12:00–13:00 one, and its stroll (300).
        let limited = try store.statistics(type: .stepCount, predicate: .all, scope: .from(12 * Self.hour), appID: Self.phone, boundaries: day, mergeSources: true)
        #expect(Self.sums(limited) == [7_900])
        // Full access also sees the watch's morning walk, which covers the phone's.
        let full = try store.statistics(type: .stepCount, predicate: .all, scope: .from(.min), appID: Self.phone, boundaries: day, mergeSources: true)
        #expect(Self.sums(full) == [8_300])
    }

    @Test func aLimitedReaderMergesOnlyWhatItMaySee() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        try Self.walk(store)
        try store.setSourcePriority(of: .stepCount, appIDs: [Self.watch])
        let day = [0, Self.day]
        // The phone reads from 12:00: the watch's walk (ending 11:00) is hidden from it, so its own
        // walk is not covered by anything it may see.
        let limited = try store.statistics(type: .stepCount, predicate: .all, scope: .from(12 * Self.hour), appID: Self.phone, boundaries: day, mergeSources: true)
        #expect(Self.sums(limited) == [4_900])
    }
}
