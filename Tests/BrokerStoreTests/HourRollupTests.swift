import BrokerModel
import BrokerPolicy
@testable import BrokerStore
import BrokerSupport
import Testing

/// Statistics from the hour rollups agree with statistics from the samples alone, over random
/// samples of three sources (overlapping, spanning hours, instants, whole covered hours), random
/// predicates, scopes (full, limited from a date inside an hour, own only), intervals in time
/// zones with whole-, half- and quarter-hour offsets and DST, source orders, and deletes.
@Suite("Hour rollups")
struct HourRollupTests {
    typealias F = Fixture
    static let apps = ["com.example.roll.a", "com.example.roll.b", "com.example.roll.c"]
    static let day: Int64 = 24 * F.hour
    /// The samples lie in [start, start + 4 days); start is 22:13:20 UTC (not on the hour).
    static let start = F.base
    static let zones = ["UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide", "Europe/Berlin"]

    /// Random samples of `type` for one app: runs of whole minutes, random spans, instants.
    static func samples(_ random: inout SplitMix64, type: ObjectType, app: Int, first: Int, count: Int) -> [Sample] {
        var samples: [Sample] = []
        func pick(_ range: Int64) -> Int64 { Int64(random.next() % UInt64(range)) }
        func value() -> Quantity {
            type == .heartRate ? Quantity(Double(40 + pick(150)), "count/min") : Quantity(Double(pick(120)), "count")
        }
        var n = first
        func add(_ startMicros: Int64, _ endMicros: Int64) {
            samples.append(Sample(uuid: F.uuid(n), type: type, startMicros: startMicros, endMicros: endMicros, value: .quantity(value())))
            n += 1
        }
        while samples.count < count {
            switch pick(4) {
            case 0:
                // A run of whole minutes from an hour (or anywhere), 30 to 150 of them.
                let hourStart = (start / F.hour + 1 + pick(90)) * F.hour + (pick(3) == 0 ? pick(F.hour) : 0)
                for minute in 0..<(30 + pick(120)) { add(hourStart + minute * F.minute, hourStart + (minute + 1) * F.minute) }
            case 1:
                let at = start + pick(4 * day)
                add(at, at)
            default:
                let at = start + pick(4 * day)
                add(at, at + pick(pick(5) == 0 ? 3 * F.hour : 20 * F.minute))
            }
        }
        return samples
    }

    /// The statistics with the rollups read and with the samples alone.
    static func both(_ store: BrokerStore, _ body: (BrokerStore) throws -> [StatisticsBucket]) throws -> ([StatisticsBucket], [StatisticsBucket]) {
        store.sampleTable.readsRollups = true
        let rolled = try body(store)
        store.sampleTable.readsRollups = false
        defer { store.sampleTable.readsRollups = true }
        return (rolled, try body(store))
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    /// Random queries compared; returns how many buckets were compared.
    static func compare(_ store: BrokerStore, _ random: inout SplitMix64, queries: Int, label: String) async throws -> Int {
        var everything: [Sample] = []
        var after: Int64 = 0
        while true {
            let page = try store.exportPage(type: nil, appID: nil, afterSequence: after, pageSize: 5_000)
            if page.samples.isEmpty { break }
            everything += page.samples
            after = page.lastSequence
        }
        func pick(_ range: Int64) -> Int64 { Int64(random.next() % UInt64(range)) }
        var compared = 0
        for query in 0..<queries {
            // Seconds of CPU in a debug build: give the cooperative pool (2 threads here) back now and then.
            if query % 10 == 0 { await Task.yield() }
            let type: ObjectType = pick(4) == 0 ? .heartRate : .stepCount
            let reader = pick(5) == 0 ? "com.example.roll.none" : apps[Int(pick(3))]
            let scope: ReadScope = switch pick(4) {
            case 0: .ownSamplesOnly
            case 1: .from(start + pick(4 * day))
            case 2: .from((start / F.hour + pick(96)) * F.hour)
            default: .from(.min)
            }
            func instant() -> Int64? {
                switch pick(4) {
                case 0: nil
                case 1: (start / F.hour + pick(100)) * F.hour
                default: start - day / 2 + pick(5 * day)
                }
            }
            var (low, high) = (instant(), instant())
            if let l = low, let h = high, l > h { (low, high) = (h, l) }
            let options: SamplePredicate.Options = [[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]][Int(pick(4))]
            let predicate = SamplePredicate(startMicros: low, endMicros: high, options: options)
            let boundaries: [Int64]
            if pick(5) == 0 {
                var points = Set<Int64>()
                for _ in 0..<(2 + pick(12)) { points.insert(pick(2) == 0 ? (start / F.hour + pick(100)) * F.hour : start - day + pick(6 * day)) }
                boundaries = points.sorted()
            } else {
                let interval: StatisticsInterval = [.hour, .day, .day, .week, .none][Int(pick(5))]
                let statisticsQuery = StatisticsQuery(
                    type: type, predicate: SamplePredicate(startMicros: low, endMicros: high), options: .sum, interval: interval,
                    anchorMicros: start + pick(day), timeZone: zones[Int(pick(Int64(zones.count)))])
                boundaries = try StatisticsRules.boundaries(for: statisticsQuery, fallbackStart: start - day, fallbackEnd: start + 5 * day)
            }
            let merge = type == .stepCount && pick(2) == 0
            let (rolled, sampled) = try both(store) { store in
                try store.statistics(type: type, predicate: predicate, scope: scope, appID: reader, boundaries: boundaries, mergeSources: merge)
            }
            // The counts by brute force over every sample, as the rules define them.
            var truth = [UInt64](repeating: 0, count: max(0, boundaries.count - 1))
            for sample in everything where sample.type == type {
                let visible: Bool = switch scope {
                case .ownSamplesOnly: sample.sourceAppID == reader
                case .from(let floor): sample.sourceAppID == reader || sample.endMicros >= floor
                case .notDetermined: false
                }
                let strictStart = options.contains(.strictStartDate), strictEnd = options.contains(.strictEndDate)
                var matches = true
                if let low {
                    if strictStart && sample.startMicros < low { matches = false }
                    if (strictEnd || !strictStart) && sample.endMicros < low { matches = false }
                }
                if let high {
                    if (strictStart || !strictEnd) && sample.startMicros >= high { matches = false }
                    if strictEnd && sample.endMicros >= high { matches = false }
                }
                guard visible, matches, let bucket = SampleTable.bucket(of: sample.startMicros, boundaries) else { continue }
                truth[bucket] += 1
            }
            let truthBuckets = truth.indices.filter { truth[$0] > 0 }
            let context = "\(label) query \(query): \(type.identifier) \(scope) reader \(reader) \(predicate) merge \(merge) \(boundaries.count) boundaries"
            #expect(rolled.map(\.startMicros) == sampled.map(\.startMicros), "\(context)")
            #expect(rolled.map(\.sampleCount) == sampled.map(\.sampleCount), "\(context)")
            #expect(sampled.map(\.sampleCount) == truthBuckets.map { truth[$0] }, "\(context): samples against brute force")
            #expect(rolled.map(\.sampleCount) == truthBuckets.map { truth[$0] }, "\(context): rollups against brute force")
            for (a, b) in zip(rolled, sampled) {
                #expect(close(a.sum, b.sum), "\(context): sum \(a.sum ?? -1) from rollups, \(b.sum ?? -1) from samples at \(a.startMicros)")
                if !merge {
                    #expect(a.minimum == b.minimum && a.maximum == b.maximum, "\(context)")
                    #expect(close(a.average, b.average), "\(context)")
                }
            }
            compared += rolled.count
        }
        return compared
    }

    /// The rollup rows agree with the samples: count, sum, minimum, maximum and latest end exactly,
    /// and the covered time is at most the union's.
    static func checkRows(_ store: BrokerStore) throws {
        var expected: [String: [Int64: [HourRollupTable.Item]]] = [:]
        var after: Int64 = 0
        while true {
            let page = try store.exportPage(type: nil, appID: nil, afterSequence: after, pageSize: 5_000)
            for sample in page.samples {
                guard case .quantity(let quantity) = sample.value else { continue }
                expected["\(sample.sourceAppID) \(sample.type.identifier)", default: [:]][HourRollupTable.hour(of: sample.startMicros), default: []]
                    .append(HourRollupTable.Item(start: sample.startMicros, end: sample.endMicros, value: quantity.value))
            }
            if page.samples.isEmpty { break }
            after = page.lastSequence
        }
        for app in apps {
            for type in [ObjectType.stepCount, .heartRate] {
                let appCode = try #require(try store.sampleTable.apps.code(of: app))
                let typeCode = try #require(try store.sampleTable.types.code(of: type.identifier))
                let rows = try store.sampleTable.rollups.rows(typeCode: typeCode, appCode: appCode, hours: Int64.min...Int64.max)
                let hours = expected["\(app) \(type.identifier)"] ?? [:]
                #expect(rows.map(\.hour) == hours.keys.sorted(), "\(app) \(type.identifier)")
                for row in rows {
                    let want = try #require(HourRollupTable.row(hour: row.hour, app: appCode, items: hours[row.hour] ?? []))
                    #expect(row.count == want.count && row.total == want.total && row.lowest == want.lowest && row.highest == want.highest && row.maxEnd == want.maxEnd)
                    #expect(row.covered <= want.covered && row.covered >= 0)
                }
            }
        }
    }

    @Test func rollupsAgreeWithSamplesOnRandomData() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        do {
            var random = SplitMix64(seed: 18_006)
            var saved: [String: [Sample]] = [:]
            for (index, app) in Self.apps.enumerated() {
                let steps = Self.samples(&random, type: .stepCount, app: index, first: 100_000 * (index + 1), count: 900)
                let heart = Self.samples(&random, type: .heartRate, app: index, first: 100_000 * (index + 1) + 50_000, count: 300)
                // In a few saves, not in time order: later saves add to hours that already have rows.
                for chunk in stride(from: 0, to: steps.count, by: 250) {
                    _ = try store.saveSamples(Array(steps[chunk..<min(chunk + 250, steps.count)]).reversed(), sourceAppID: app, now: 1)
                }
                _ = try store.saveSamples(heart, sourceAppID: app, now: 1)
                saved[app] = steps + heart
            }
            try store.setSourcePriority(of: .stepCount, appIDs: [Self.apps[1], Self.apps[0]])
            try Self.checkRows(store)
            var compared = try await Self.compare(store, &random, queries: 250, label: "saved")
            // Deletes by uuid and by predicate, then the order changes.
            for app in Self.apps {
                let victims = (saved[app] ?? []).enumerated().filter { $0.offset % 7 == 3 }.map(\.element.uuid)
                _ = try store.deleteSamples(uuids: victims, appID: app, now: 2)
            }
            _ = try store.deleteSamples(type: .stepCount, predicate: SamplePredicate(startMicros: Self.start + Self.day, endMicros: Self.start + Self.day + 5 * F.hour / 2),
                                        appID: Self.apps[2], now: 2)
            try store.setSourcePriority(of: .stepCount, appIDs: [Self.apps[2]])
            try Self.checkRows(store)
            compared += try await Self.compare(store, &random, queries: 250, label: "after deletes")
            // More saves into hours that have rows.
            for (index, app) in Self.apps.enumerated() {
                _ = try store.saveSamples(Self.samples(&random, type: .stepCount, app: index, first: 500_000 + 10_000 * index, count: 200), sourceAppID: app, now: 3)
            }
            try store.setSourcePriority(of: .stepCount, appIDs: [])
            try Self.checkRows(store)
            compared += try await Self.compare(store, &random, queries: 250, label: "after more saves")
            // Rebuilt from the samples as the version 12 migration fills them (covered time from SQL).
            try store.database.execute("DELETE FROM hour_rollups")
            try store.database.execute(BrokerSchema.rebuildRollups)
            try Self.checkRows(store)
            try store.setSourcePriority(of: .stepCount, appIDs: [Self.apps[0], Self.apps[1]])
            compared += try await Self.compare(store, &random, queries: 250, label: "rebuilt")
            #expect(compared > 2_000, "only \(compared) buckets compared")
        }
    }

    @Test func aWholeCoveredHourOfTheFirstSourceIsItsRollup() throws {
        try F.withStore { store, _ throws in
            let hourStart = (Self.start / F.hour + 2) * F.hour
            // The watch covers 10:00–11:00 with minutes; the phone counts the same hour in two halves.
            let watch = (0..<60).map { F.steps(1_000 + $0, hourStart + Int64($0) * F.minute, hourStart + Int64($0 + 1) * F.minute, count: 5) }
            // In two saves, in time order (as an import splits an hour): the covered times add up.
            _ = try store.saveSamples(Array(watch.prefix(25)), sourceAppID: "com.example.watch", now: 1)
            _ = try store.saveSamples(Array(watch.dropFirst(25)), sourceAppID: "com.example.watch", now: 1)
            _ = try store.saveSamples([F.steps(2_000, hourStart, hourStart + F.hour / 2, count: 1_000), F.steps(2_001, hourStart + F.hour / 2, hourStart + F.hour, count: 1_000)],
                                      sourceAppID: "com.example.phone", now: 1)
            try store.setSourcePriority(of: .stepCount, appIDs: ["com.example.watch"])
            let boundaries = [hourStart - Self.day, hourStart + Self.day]
            let (rolled, sampled) = try Self.both(store) { try $0.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries, mergeSources: true) }
            #expect(rolled.map(\.sum) == [300] && sampled.map(\.sum) == [300])
            #expect(rolled.map(\.sampleCount) == [62])
            // The whole of time in one bucket: whole hours only within ±2^62 µs, no overflow.
            for merge in [true, false] {
                let (all, allSampled) = try Self.both(store) { try $0.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: [.min, .max], mergeSources: merge) }
                #expect(all.map(\.sum) == allSampled.map(\.sum) && all.map(\.sum) == [merge ? 300 : 2_300])
            }
            let appCode = try #require(try store.sampleTable.apps.code(of: "com.example.watch"))
            let typeCode = try #require(try store.sampleTable.types.code(of: ObjectType.stepCount.identifier))
            let rows = try store.sampleTable.rollups.rows(typeCode: typeCode, appCode: appCode, hours: Int64.min...Int64.max)
            #expect(rows.map(\.covered) == [F.hour])
            // Deleting one watch minute leaves a gap: the hour is merged from its samples, the phone fills it.
            _ = try store.deleteSamples(uuids: [F.uuid(1_030)], appID: "com.example.watch", now: 2)
            let (gap, gapSampled) = try Self.both(store) { try $0.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries, mergeSources: true) }
            #expect(try store.sampleTable.rollups.rows(typeCode: typeCode, appCode: appCode, hours: Int64.min...Int64.max).map(\.covered) == [F.hour - F.minute])
            #expect(Self.close(gap.first?.sum, gapSampled.first?.sum))
            #expect(Self.close(gap.first?.sum, 295 + 1_000.0 / 30))
            // Rebuilt as the version 12 migration fills them: the minutes do not overlap, so the covered time is exact.
            try store.database.execute("DELETE FROM hour_rollups")
            try store.database.execute(BrokerSchema.rebuildRollups)
            #expect(try store.sampleTable.rollups.rows(typeCode: typeCode, appCode: appCode, hours: Int64.min...Int64.max).map(\.covered) == [F.hour - F.minute])
            let phone = try #require(try store.sampleTable.apps.code(of: "com.example.phone"))
            #expect(try store.sampleTable.rollups.rows(typeCode: typeCode, appCode: phone, hours: Int64.min...Int64.max).map(\.covered) == [F.hour])
            let rebuilt = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries, mergeSources: true)
            #expect(Self.close(rebuilt.first?.sum, 295 + 1_000.0 / 30))
        }
    }
}
