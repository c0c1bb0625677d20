import BrokerModel
import BrokerPolicy
import BrokerSupport
@testable import BrokerStore
import Testing

@Suite("BrokerStore sample queries")
struct SampleQueryTests {
    typealias F = Fixture

    /// Every option combination.
    static let optionSets: [SamplePredicate.Options] = [[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]]

    /// Each stored sample's position in seq (save) order, by uuid, as the export reads them.
    static func saveOrder(_ store: BrokerStore) throws -> [String: Int] {
        var order: [String: Int] = [:]
        var after: Int64 = 0
        while true {
            let page = try store.exportPage(type: nil, appID: nil, afterSequence: after, pageSize: 5_000)
            if page.samples.isEmpty { return order }
            for sample in page.samples { order[sample.uuid] = order.count }
            after = page.lastSequence
        }
    }

    /// The uuids of the samples `samplePage` returns, in order.
    static func uuids(_ store: BrokerStore, _ predicate: SamplePredicate, scope: ReadScope = .from(.min), appID: String = F.app) throws -> [String] {
        try F.readAll(store, predicate: predicate, scope: scope, appID: appID).map(\.uuid)
    }

    @Test func everyPredicateOptionAtItsExactBoundaries() throws {
        try F.withStore { store, _ throws in
            let (s, e) = (F.base, F.base + 4 * F.hour)
            // n: (start, end)
            let spans: [Int: (Int64, Int64)] = [
                1: (s - F.hour, s),          // ends exactly at the range start
                2: (e, e + F.hour),          // starts exactly at the range end
                3: (s, s + F.hour),          // starts exactly at the range start
                4: (s - F.hour, e),          // ends exactly at the range end
                5: (e - 1, e + F.hour),      // starts 1 µs before the range end
                6: (s - F.hour, s - 1),      // ends 1 µs before the range start
                7: (s, s),                   // an instant at the range start
                8: (e, e),                   // an instant at the range end
                9: (s - F.hour, e + F.hour), // covers the range
                10: (e - 1, e - 1),          // an instant 1 µs before the range end
            ]
            _ = try store.saveSamples(spans.keys.sorted().map { F.steps($0, spans[$0]!.0, spans[$0]!.1) }, sourceAppID: F.app, now: 1)

            /// The numbers of the samples the predicate returns.
            func matching(_ options: SamplePredicate.Options, _ start: Int64? = s, _ end: Int64? = e) throws -> Set<Int> {
                let found = try Self.uuids(store, SamplePredicate(startMicros: start, endMicros: end, options: options))
                return Set(found.compactMap { uuid in spans.keys.first { F.uuid($0) == uuid } })
            }
            #expect(try matching([]) == [1, 3, 4, 5, 7, 9, 10])
            #expect(try matching(.strictStartDate) == [3, 5, 7, 10])
            #expect(try matching(.strictEndDate) == [1, 3, 7, 10])
            #expect(try matching([.strictStartDate, .strictEndDate]) == [3, 7, 10])
            // Open bounds.
            #expect(try matching([], nil, e) == [1, 3, 4, 5, 6, 7, 9, 10])
            #expect(try matching([], s, nil) == [1, 2, 3, 4, 5, 7, 8, 9, 10])
            #expect(try matching(.strictEndDate, nil, nil) == Set(spans.keys))
            // An empty range [s, s) holds nothing strictly, and overlaps only what ends at or after s and starts before s.
            #expect(try matching([], s, s) == [1, 4, 9])
            #expect(try matching(.strictStartDate, s, s).isEmpty)
            // Every combination agrees with the reference semantics.
            for options in Self.optionSets {
                for (start, end) in [(s, e), (nil, e), (s, nil), (nil, nil), (e, e), (s - 1, s + 1)] as [(Int64?, Int64?)] {
                    let predicate = SamplePredicate(startMicros: start, endMicros: end, options: options)
                    let expected = Set(spans.filter { PredicateRules.matches(predicate, startMicros: $0.value.0, endMicros: $0.value.1) }.keys)
                    #expect(try matching(options, start, end) == expected, "options \(options.rawValue) start \(String(describing: start)) end \(String(describing: end))")
                }
            }
        }
    }

    @Test func randomSamplesAgreeWithTheReferenceSemantics() throws {
        try F.withStore { store, _ throws in
            var random = SplitMix64(seed: 7)
            var samples: [(Sample, String)] = []
            for n in 0..<600 {
                let start = F.base + Int64.random(in: 0..<(48 * F.hour), using: &random) / F.minute * F.minute
                let length = [0, F.minute, F.hour, 9 * F.hour][Int.random(in: 0..<4, using: &random)]
                let source = [F.app, F.other, "com.example.third"][Int.random(in: 0..<3, using: &random)]
                samples.append((F.steps(n, start, start + length), source))
            }
            for source in [F.app, F.other, "com.example.third"] {
                _ = try store.saveSamples(samples.filter { $0.1 == source }.map(\.0), sourceAppID: source, now: 1)
            }
            // Equal dates go by seq, which is save order.
            let saved = try Self.saveOrder(store)
            let floor = F.base + 20 * F.hour
            for _ in 0..<40 {
                let a = F.base + Int64.random(in: -F.hour..<(50 * F.hour), using: &random) / F.minute * F.minute
                let b = a + Int64.random(in: 0..<(12 * F.hour), using: &random) / F.minute * F.minute
                for options in Self.optionSets {
                    let predicate = SamplePredicate(startMicros: a, endMicros: b, options: options)
                    for scope in [ReadScope.from(.min), .from(floor), .ownSamplesOnly] {
                        let expected = samples.filter { sample, source in
                            PredicateRules.matches(predicate, startMicros: sample.startMicros, endMicros: sample.endMicros)
                                && PredicateRules.readable(endMicros: sample.endMicros, sourceAppID: source, by: F.app, scope: scope)
                        }.map(\.0)
                        // Every sort: a clamped scope merges the floor's range with the app's own samples.
                        let sort = SampleTable.sorts[Int.random(in: 0..<4, using: &random)]
                        let key = { (sample: Sample) in sort.key == .startDate ? sample.startMicros : sample.endMicros }
                        let ordered = expected.sorted { (key($0), saved[$0.uuid]!) < (key($1), saved[$1.uuid]!) }.map(\.uuid)
                        let found = try F.readAll(store, predicate: predicate, scope: scope, sort: sort, pageSize: 37)
                        #expect(found.map(\.uuid) == (sort.descending ? ordered.reversed() : ordered), "\(sort) \(scope)")
                        // Statistics over the same samples, per 5-hour bucket of their start (a floor's
                        // three parts, or the own rows alone, add up to what the reference counts).
                        let boundaries = (0...12).map { F.base - 2 * F.hour + Int64($0) * 5 * F.hour }
                        let buckets = try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: F.app, boundaries: boundaries)
                        var counts: [Int64: UInt64] = [:]
                        for sample in expected {
                            guard let index = boundaries.lastIndex(where: { $0 <= sample.startMicros }), index < boundaries.count - 1 else { continue }
                            counts[boundaries[index], default: 0] += 1
                        }
                        #expect(Dictionary(uniqueKeysWithValues: buckets.map { ($0.startMicros, $0.sampleCount) }) == counts, "statistics \(scope)")
                        #expect(buckets.allSatisfy { $0.sum == Double($0.sampleCount) * 10 && $0.average == 10 }, "statistics \(scope)")
                    }
                }
            }
        }
    }

    @Test func quantityPagesReadTheLeanColumnsAndCategoryPagesTheFullRow() throws {
        try F.withStore { store, _ in
            let steps = F.steps(1, F.base, F.base + F.minute, count: 12, metadata: ["device": "watch"])
            let sleep = Sample(uuid: F.uuid(2), type: .sleepAnalysis, startMicros: F.base, endMicros: F.base + F.hour, value: .category(3))
            _ = try store.saveSamples([steps, sleep], sourceAppID: F.app, now: 5)
            #expect(try F.readAll(store) == [F.stored(steps, by: F.app, at: 5)])
            #expect(try F.readAll(store, type: .sleepAnalysis) == [F.stored(sleep, by: F.app, at: 5)])
        }
    }

    @Test func aStoredValueOfTheWrongKindIsAnInternalErrorNotASilentSkip() throws {
        try F.withStore { store, _ in
            // The broker's validator never lets this in; the store reports it rather than hide it.
            let odd = Sample(uuid: F.uuid(3), type: .stepCount, startMicros: F.base, endMicros: F.base, value: .category(1))
            _ = try store.saveSamples([odd], sourceAppID: F.app, now: 5)
            #expect(throws: BrokerError.self) { try F.readAll(store) }
        }
    }

    @Test func limitAndSortOrders() throws {
        try F.withStore { store, _ throws in
            // n: start, end — start order 1 2 3 4, end order 2 1 4 3.
            _ = try store.saveSamples([
                F.steps(1, F.base, F.base + 3 * F.hour),
                F.steps(2, F.base + F.hour, F.base + 2 * F.hour),
                F.steps(3, F.base + 2 * F.hour, F.base + 6 * F.hour),
                F.steps(4, F.base + 3 * F.hour, F.base + 4 * F.hour),
            ], sourceAppID: F.app, now: 1)
            func page(_ key: SampleSort.Key, descending: Bool, limit: Int?, pageSize: Int = 100) throws -> SamplePageResult {
                try store.samplePage(SamplePageRequest(
                    type: .stepCount, scope: .from(.min), appID: F.app, sort: SampleSort(key: key, descending: descending),
                    pageSize: pageSize, limit: limit))
            }
            let newest = try page(.startDate, descending: true, limit: 1)
            #expect(newest.samples.map(\.uuid) == [F.uuid(4)])
            #expect(newest.next == nil)
            #expect(try page(.startDate, descending: false, limit: nil).samples.map(\.uuid) == [1, 2, 3, 4].map(F.uuid))
            #expect(try page(.startDate, descending: true, limit: nil).samples.map(\.uuid) == [4, 3, 2, 1].map(F.uuid))
            #expect(try page(.endDate, descending: false, limit: nil).samples.map(\.uuid) == [2, 1, 4, 3].map(F.uuid))
            #expect(try page(.endDate, descending: true, limit: nil).samples.map(\.uuid) == [3, 4, 1, 2].map(F.uuid))
            #expect(try page(.endDate, descending: true, limit: 2).samples.map(\.uuid) == [3, 4].map(F.uuid))
            #expect(try page(.startDate, descending: false, limit: 0).samples.isEmpty)
            // A page smaller than the limit points on; the page that uses the limit up does not.
            let first = try page(.startDate, descending: false, limit: 3, pageSize: 2)
            #expect(first.samples.map(\.uuid) == [1, 2].map(F.uuid))
            // The second sample saved into a fresh store has seq 2.
            #expect(first.next == SampleCursor(sortValue: F.base + F.hour, sequence: 2))
            let second = try store.samplePage(SamplePageRequest(
                type: .stepCount, scope: .from(.min), appID: F.app, pageSize: 2, after: first.next, limit: 1))
            #expect(second.samples.map(\.uuid) == [F.uuid(3)])
            #expect(second.next == nil)
            // Exactly a page's worth left: no dangling empty page.
            #expect(try page(.startDate, descending: false, limit: nil, pageSize: 4).next == nil)

            let invalid = #expect(throws: BrokerError.self) { try page(.startDate, descending: false, limit: nil, pageSize: 0) }
            #expect(invalid?.code == .invalidArgument)
        }
    }

    @Test func keysetPagingReturnsEverySampleOnceInOrder() throws {
        try F.withStore { store, _ throws in
            var random = SplitMix64(seed: 42)
            // 10,000 samples; starts and ends collide often, so the seq must break ties.
            var samples = (0..<10_000).map { n -> Sample in
                let start = F.base + Int64(n / 4) * F.minute
                return F.steps(n, start, start + Int64(n % 3) * F.minute)
            }
            samples.shuffle(using: &random)
            for chunk in stride(from: 0, to: samples.count, by: 2_500) {
                _ = try store.saveSamples(Array(samples[chunk..<(chunk + 2_500)]), sourceAppID: F.app, now: 1)
            }
            // Saved in shuffled order, so seq order is neither uuid order nor date order.
            let saved = try Self.saveOrder(store)
            for sort in SampleTable.sorts {
                let date: (Sample) -> Int64 = sort.key == .startDate ? { $0.startMicros } : { $0.endMicros }
                let expected = samples.sorted { a, b in
                    let (x, y) = ((date(a), saved[a.uuid]!), (date(b), saved[b.uuid]!))
                    return sort.descending ? x > y : x < y
                }.map(\.uuid)
                var found: [String] = []
                var cursor: SampleCursor?
                var pages = 0
                repeat {
                    let page = try store.samplePage(SamplePageRequest(
                        type: .stepCount, scope: .from(.min), appID: F.app, sort: sort, pageSize: 100, after: cursor))
                    #expect(page.samples.count == 100)
                    found += page.samples.map(\.uuid)
                    cursor = page.next
                    pages += 1
                } while cursor != nil && pages < 200
                #expect(pages == 100)
                #expect(found == expected)
            }
        }
    }

    @Test func equalDatesComeBackInSaveOrderAcrossPagesFullAndClamped() throws {
        try F.withStore { store, _ throws in
            let (b, h) = (F.base, F.hour)
            // 48 samples on 2 starts and 5 ends, saved one batch each and alternating between this app
            // and another, so equal dates hold runs of both. The uuids count down as the seqs count up,
            // so uuid order is the reverse of save order. Of this app's samples some end before the
            // floor b: a clamped read merges them with the visible ones that start at the same instants.
            var samples: [(sample: Sample, source: String)] = []
            for n in 0..<48 {
                let start = b - 2 * h + Int64(n % 2) * h
                let end = [start + h / 2, b, b + h][(n / 2) % 3]
                samples.append((F.steps(100 - n, start, end), (n / 6) % 2 == 0 ? F.app : F.other))
            }
            for (sample, source) in samples {
                #expect(try store.saveSamples([sample], sourceAppID: source, now: 1).saved == 1)
            }
            for sort in SampleTable.sorts {
                let key = { (sample: Sample) in sort.key == .startDate ? sample.startMicros : sample.endMicros }
                for scope in [ReadScope.from(.min), .from(b)] {
                    let readable = samples.indices.filter { n in
                        PredicateRules.readable(endMicros: samples[n].sample.endMicros, sourceAppID: samples[n].source, by: F.app, scope: scope)
                    }
                    // Save order n is seq order; descending reverses both the date and the seq.
                    let ascending = readable.sorted { (key(samples[$0].sample), $0) < (key(samples[$1].sample), $1) }
                    let expected = (sort.descending ? ascending.reversed() : ascending).map { samples[$0].sample.uuid }
                    for pageSize in [1, 5, 7] {
                        let found = try F.readAll(store, scope: scope, sort: sort, pageSize: pageSize).map(\.uuid)
                        #expect(found == expected, "\(sort) \(scope) pages of \(pageSize)")
                        #expect(Set(found).count == found.count, "\(sort) \(scope): a sample came back twice")
                    }
                }
            }
            // The clamped read really merges equal starts from both ranges: this app's sample ending
            // before b (n = 0, seq 1) and a visible one (n = 2, seq 3) share start b − 2h.
            #expect(samples[0].sample.endMicros < b && samples[0].source == F.app && samples[2].sample.endMicros >= b)
            #expect(samples[0].sample.startMicros == samples[2].sample.startMicros)
            // A page that ends inside a run of equal dates points at the last sample's seq.
            let first = try store.samplePage(SamplePageRequest(type: .stepCount, scope: .from(.min), appID: F.app, pageSize: 5))
            #expect(first.samples.map(\.uuid) == [0, 2, 4, 6, 8].map { samples[$0].sample.uuid })
            #expect(first.next == SampleCursor(sortValue: b - 2 * h, sequence: 9))
            let newestFirst = try store.samplePage(SamplePageRequest(
                type: .stepCount, scope: .from(b), appID: F.app, sort: SampleSort(key: .startDate, descending: true), pageSize: 3))
            // (n = 43 is the other app's, ending before b: out of scope.)
            #expect(newestFirst.samples.map(\.uuid) == [47, 45, 41].map { samples[$0].sample.uuid })
            #expect(newestFirst.next == SampleCursor(sortValue: b - h, sequence: 42))
        }
    }

    @Test func scopeClampsByEndDateAndKeepsOwnSamples() throws {
        try F.withStore { store, _ throws in
            let b = F.base
            _ = try store.saveSamples([
                F.steps(1, b - F.hour, b + F.hour),      // in: ends after B
                F.steps(2, b - 2 * F.hour, b - F.hour),  // out: ends before B
                F.steps(3, b - F.hour, b),               // in: ends exactly at B
                F.steps(4, b - F.hour, b - 1),           // out: ends 1 µs before B
                F.steps(5, b + F.hour, b + 2 * F.hour),  // in
            ], sourceAppID: F.other, now: 1)
            _ = try store.saveSamples([F.steps(6, b - 5 * F.hour, b - 4 * F.hour)], sourceAppID: F.app, now: 1)

            #expect(try Set(Self.uuids(store, .all, scope: .from(b))) == Set([1, 3, 5, 6].map(F.uuid)))
            #expect(try Set(Self.uuids(store, .all, scope: .from(b), appID: "com.example.third")) == Set([1, 3, 5].map(F.uuid)))
            #expect(try Self.uuids(store, .all, scope: .ownSamplesOnly) == [F.uuid(6)])
            #expect(try Self.uuids(store, .all, scope: .ownSamplesOnly, appID: "com.example.third").isEmpty)
            #expect(try Self.uuids(store, .all, scope: .notDetermined).isEmpty)
            #expect(try Self.uuids(store, .all, scope: .from(.min)).count == 6)
            // The clamp and the predicate both apply: a query over [B − 3h, B) sees 1, 3 and own 6 is outside it.
            let window = SamplePredicate(startMicros: b - 3 * F.hour, endMicros: b)
            #expect(try Set(Self.uuids(store, window, scope: .from(b))) == Set([1, 3].map(F.uuid)))
        }
    }

    /// The query-plan detail lines of `sql` on a second connection to the store's database.
    static func plan(_ sql: String, in store: BrokerStore) throws -> [String] {
        let database = try Database(path: store.databasePath)
        defer { database.close() }
        return try database.prepare("EXPLAIN QUERY PLAN " + sql).run { statement throws(BrokerError) in
            var lines: [String] = []
            while try statement.step() { lines.append(statement.string(at: 3)) }
            return lines
        }
    }

    @Test func pageQueriesAreIndexRangeScansWithoutASort() throws {
        try F.withStore { store, _ throws in
            for sort in SampleTable.sorts {
                let lines = try Self.plan(SampleTable.pageSQL(sort), in: store)
                let index = sort.key == .startDate ? "samples_by_type_start" : "samples_by_type_end"
                #expect(lines.count == 1, "\(lines)")
                #expect(lines.allSatisfy { $0.hasPrefix("SEARCH samples USING INDEX \(index) (type=? AND") }, "\(lines)")
                #expect(!lines.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN") }, "\(lines)")
            }
            for sort in SampleTable.sorts {
                let lines = try Self.plan(SampleTable.ownPageSQL(sort), in: store)
                #expect(lines.first?.hasPrefix("SEARCH samples USING INDEX samples_by_app_type_start (app=? AND type=? AND start_us>? AND start_us<?)") == true, "\(lines)")
                // Start order comes from the index; end order is a sort of the app's own rows in range.
                #expect(lines.contains { $0.contains("TEMP B-TREE") } == (sort.key == .endDate), "\(lines)")
            }
            let statistics = try Self.plan(SampleTable.statisticsSQL, in: store)
            #expect(statistics.contains { $0.hasPrefix("SEARCH s USING INDEX samples_by_type_start (type=? AND start_us>? AND start_us<?)") }, "\(statistics)")
            #expect(!statistics.contains { $0.hasPrefix("SCAN s") }, "\(statistics)")
        }
    }
}
