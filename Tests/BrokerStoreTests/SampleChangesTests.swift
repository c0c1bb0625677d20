import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerStore
import Testing

@Suite("BrokerStore anchored changes, pruning, statistics, access log and export")
struct SampleChangesTests {
    typealias F = Fixture

    /// Every change of steps after `after` up to the current sequence, one page of `pageSize` at a time;
    /// `last` is the position an anchor would carry (the last change returned, else `after`).
    static func allChanges(_ store: BrokerStore, after: Int64, predicate: SamplePredicate = .all, scope: ReadScope = .from(.min), appID: String = F.app, pageSize: Int = 100) throws -> (added: [String], deleted: [String], last: Int64) {
        let through = try store.currentSequence()
        var (added, deleted, position) = ([String](), [String](), after)
        var pages = 0
        while true {
            let page = try store.changes(type: .stepCount, predicate: predicate, scope: scope, appID: appID,
                                         afterSequence: position, throughSequence: through, pageSize: pageSize)
            #expect(page.added.count + page.deleted.count <= pageSize)
            #expect(page.lastSequence > position || (page.added.isEmpty && page.deleted.isEmpty && !page.hasMore))
            #expect(page.lastSequence <= through)
            added += page.added.map(\.uuid)
            deleted += page.deleted.map(\.uuid)
            position = page.lastSequence
            pages += 1
            if !page.hasMore || pages > 1_000 { break }
        }
        return (added, deleted, position)
    }

    @Test func addedThenDeletedShowsUpOnce() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples((1...3).map { F.steps($0, F.base, F.base + F.minute) }, sourceAppID: F.app, now: 1)
            let first = try Self.allChanges(store, after: 0)
            #expect(first.added == [1, 2, 3].map(F.uuid))
            #expect(first.deleted.isEmpty)
            #expect(first.last == 3)

            // No changes: an empty answer at the same position.
            let none = try store.changes(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app,
                                         afterSequence: 3, throughSequence: 3, pageSize: 10)
            #expect(none.added.isEmpty && none.deleted.isEmpty && !none.hasMore && none.lastSequence == 3)

            _ = try store.deleteSamples(uuids: [F.uuid(2)], appID: F.app, now: 2)
            let second = try Self.allChanges(store, after: first.last)
            #expect(second.added.isEmpty)
            #expect(second.deleted == [F.uuid(2)])

            // From scratch (no anchor): the survivors, and no deletions: nothing held could be removed.
            let scratch = try Self.allChanges(store, after: 0)
            #expect(scratch.added == [1, 3].map(F.uuid))
            #expect(scratch.deleted.isEmpty)
            // From the first anchor: the deletion once, at its position.
            #expect(try Self.allChanges(store, after: first.last).deleted == [F.uuid(2)])

            // Added and deleted between two anchors: only the deletion, once; re-saved after it, both.
            _ = try store.saveSamples([F.steps(4, F.base, F.base)], sourceAppID: F.app, now: 3)
            _ = try store.deleteSamples(uuids: [F.uuid(4)], appID: F.app, now: 4)
            let third = try Self.allChanges(store, after: second.last)
            #expect(third.added.isEmpty)
            #expect(third.deleted == [F.uuid(4)])
            _ = try store.saveSamples([F.steps(4, F.base, F.base)], sourceAppID: F.app, now: 5)
            _ = try store.deleteSamples(uuids: [F.uuid(4)], appID: F.app, now: 6)
            _ = try store.saveSamples([F.steps(4, F.base, F.base)], sourceAppID: F.app, now: 7)
            // Deleted and saved again: only added (the client replaces it), never also deleted.
            let fourth = try Self.allChanges(store, after: second.last)
            #expect(fourth.added == [F.uuid(4)])
            #expect(fourth.deleted.isEmpty)
            // Saved again and then deleted once more: only the deletion.
            _ = try store.deleteSamples(uuids: [F.uuid(4)], appID: F.app, now: 8)
            let fifth = try Self.allChanges(store, after: second.last)
            #expect(fifth.added.isEmpty)
            #expect(fifth.deleted == [F.uuid(4)])

            // Other types are not in the stream.
            _ = try store.saveSamples([
                Sample(uuid: F.uuid(50), type: .heartRate, startMicros: F.base, endMicros: F.base, value: .quantity(Quantity(60, "count/min"))),
            ], sourceAppID: F.app, now: 8)
            #expect(try Self.allChanges(store, after: fifth.last).added.isEmpty)
            // Nothing the app may see changed: the position does not move.
            #expect(try Self.allChanges(store, after: fifth.last).last == fifth.last)
        }
    }

    @Test func changesAreClampedAndFilteredLikeQueries() throws {
        try F.withStore { store, _ throws in
            let b = F.base
            _ = try store.saveSamples([
                F.steps(1, b - F.hour, b + F.hour),       // other, readable from B
                F.steps(2, b - 2 * F.hour, b - F.hour),   // other, before B
                F.steps(3, b + 5 * F.hour, b + 6 * F.hour), // other, readable, outside the predicate below
            ], sourceAppID: F.other, now: 1)
            _ = try store.saveSamples([F.steps(4, b - 9 * F.hour, b - 8 * F.hour)], sourceAppID: F.app, now: 1)
            let anchor = try store.currentSequence()
            _ = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(2), F.uuid(3)], appID: F.other, now: 2)
            _ = try store.deleteSamples(uuids: [F.uuid(4)], appID: F.app, now: 2)

            let clamped = try Self.allChanges(store, after: anchor, scope: .from(b))
            #expect(clamped.added.isEmpty)
            #expect(clamped.deleted == [1, 3, 4].map(F.uuid))
            #expect(try Self.allChanges(store, after: 0, scope: .from(b)).deleted.isEmpty)
            let own = try Self.allChanges(store, after: anchor, scope: .ownSamplesOnly)
            #expect(own.deleted == [F.uuid(4)])
            let window = SamplePredicate(startMicros: b - 10 * F.hour, endMicros: b + 2 * F.hour)
            #expect(try Self.allChanges(store, after: anchor, predicate: window, scope: .from(b)).deleted == [1, 4].map(F.uuid))
            #expect(try Self.allChanges(store, after: anchor, scope: .notDetermined).deleted.isEmpty)
            #expect(try Self.allChanges(store, after: anchor, scope: .from(b), appID: "com.example.third").deleted == [1, 3].map(F.uuid))
        }
    }

    @Test func changesPageInSequenceOrder() throws {
        try F.withStore { store, _ throws in
            var expectedAdded: [String] = []
            var expectedDeleted: [String] = []
            for round in 0..<10 {
                let batch = (0..<5).map { F.steps(round * 10 + $0, F.base + Int64(round) * F.hour, F.base + Int64(round) * F.hour + F.minute) }
                _ = try store.saveSamples(batch, sourceAppID: F.app, now: Int64(round))
                _ = try store.saveSamples([F.steps(1_000 + round, F.base, F.base)], sourceAppID: F.other, now: Int64(round))
                _ = try store.deleteSamples(uuids: [batch[round % 5].uuid], appID: F.app, now: Int64(round))
                expectedAdded += batch.map(\.uuid).filter { $0 != batch[round % 5].uuid }
                expectedAdded.append(F.uuid(1_000 + round))
                expectedDeleted.append(batch[round % 5].uuid)
            }
            // From position 1 (the first save): every later deletion is reported.
            for pageSize in [1, 3, 7, 64, 1_000] {
                let changes = try Self.allChanges(store, after: 1, pageSize: pageSize)
                #expect(changes.added == expectedAdded, "page size \(pageSize)")
                #expect(changes.deleted == expectedDeleted, "page size \(pageSize)")
            }
            // A full page says there may be more and where it stopped.
            let page = try store.changes(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app,
                                         afterSequence: 1, throughSequence: try store.currentSequence(), pageSize: 6)
            #expect(page.hasMore)
            #expect(page.added.count == 5 && page.deleted.count == 1)
            #expect(page.lastSequence == 7)  // 4 saved, 1 other app's, then the tombstone of seq 1
            #expect(page.deleted == [ChangePage.Deletion(uuid: F.uuid(0), sourceAppID: F.app)])
        }
    }

    @Test func pruningForgetsOldTombstonesAndRemembersHowFar() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples((1...4).map { F.steps($0, F.base, F.base) }, sourceAppID: F.app, now: 1)
            #expect(try store.prunedThroughSequence() == 0)
            _ = try store.deleteSamples(uuids: [F.uuid(1)], appID: F.app, now: 100)  // seq 5
            _ = try store.deleteSamples(uuids: [F.uuid(2)], appID: F.app, now: 200)  // seq 6
            _ = try store.deleteSamples(uuids: [F.uuid(3)], appID: F.app, now: 300)  // seq 7
            #expect(try store.pruneTombstones(deletedBefore: 100) == 0)
            #expect(try store.prunedThroughSequence() == 0)
            #expect(try store.pruneTombstones(deletedBefore: 250) == 2)
            #expect(try store.prunedThroughSequence() == 6)
            #expect(try Self.allChanges(store, after: 4).deleted == [F.uuid(3)])
            #expect(try store.pruneTombstones(deletedBefore: 250) == 0)
            #expect(try store.prunedThroughSequence() == 6)
            // Sequence numbers are never reused, even when the newest change is pruned.
            #expect(try store.pruneTombstones(deletedBefore: 1_000) == 1)
            #expect(try store.prunedThroughSequence() == 7)
            #expect(try store.currentSequence() == 7)
            _ = try store.saveSamples([F.steps(9, F.base, F.base)], sourceAppID: F.app, now: 400)
            #expect(try store.currentSequence() == 8)
            #expect(try store.exportPage(type: .stepCount, appID: nil, afterSequence: 7, pageSize: 10).samples.map(\.uuid) == [F.uuid(9)])
        }
    }

    @Test func statisticsPerBucketMatchSumsComputedHere() throws {
        try F.withStore { store, _ throws in
            var random = SplitMix64(seed: 99)
            let day: Int64 = 24 * F.hour
            let start = F.base - F.base % day
            var samples: [(Sample, String)] = []
            for n in 0..<3_000 {
                let at = start - day + Int64.random(in: 0..<(5 * day), using: &random) / F.minute * F.minute
                let length = Int64.random(in: 0..<30, using: &random) * F.minute
                let count = Double(Int.random(in: 0..<500, using: &random))
                let source = n % 4 == 0 ? F.app : F.other
                samples.append((F.steps(n, at, at + length, count: count), source))
            }
            for source in [F.app, F.other] {
                _ = try store.saveSamples(samples.filter { $0.1 == source }.map(\.0), sourceAppID: source, now: 1)
            }
            _ = try store.saveSamples([
                Sample(uuid: F.uuid(90_000), type: .heartRate, startMicros: start, endMicros: start, value: .quantity(Quantity(1_000, "count/min"))),
            ], sourceAppID: F.app, now: 1)

            let boundaries = (0...72).map { start + Int64($0) * F.hour }  // 72 hourly buckets over 3 days
            let floor = start + day + 7 * F.hour
            let cases: [(SamplePredicate, ReadScope)] = [
                (.all, .from(.min)),
                (SamplePredicate(startMicros: start + 5 * F.hour, endMicros: start + 50 * F.hour), .from(.min)),
                (SamplePredicate(startMicros: start + 5 * F.hour, endMicros: start + 50 * F.hour, options: .strictEndDate), .from(floor)),
                (.all, .ownSamplesOnly),
            ]
            for (predicate, scope) in cases {
                let buckets = try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: F.app, boundaries: boundaries)
                var expected: [Int64: (count: UInt64, sum: Double, min: Double, max: Double)] = [:]
                for (sample, source) in samples {
                    guard PredicateRules.matches(predicate, startMicros: sample.startMicros, endMicros: sample.endMicros),
                          PredicateRules.readable(endMicros: sample.endMicros, sourceAppID: source, by: F.app, scope: scope),
                          sample.startMicros >= boundaries.first!, sample.startMicros < boundaries.last!,
                          case .quantity(let quantity) = sample.value else { continue }
                    let bucket = boundaries.last { $0 <= sample.startMicros }!
                    var entry = expected[bucket] ?? (0, 0, .infinity, -.infinity)
                    entry.count += 1
                    entry.sum += quantity.value
                    entry.min = Swift.min(entry.min, quantity.value)
                    entry.max = Swift.max(entry.max, quantity.value)
                    expected[bucket] = entry
                }
                #expect(!expected.isEmpty)
                #expect(buckets.map(\.startMicros) == expected.keys.sorted())
                for bucket in buckets {
                    let want = try #require(expected[bucket.startMicros])
                    #expect(bucket.endMicros == bucket.startMicros + F.hour)
                    #expect(bucket.sampleCount == want.count)
                    #expect(bucket.sum == want.sum)  // integer counts: exact
                    #expect(bucket.minimum == want.min)
                    #expect(bucket.maximum == want.max)
                    #expect(abs((bucket.average ?? 0) - want.sum / Double(want.count)) < 1e-9)
                }
            }
            // One bucket over everything; non-quantity and other types never count.
            let whole = try store.statistics(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app,
                                             boundaries: [.min, .max])
            #expect(whole.map(\.sampleCount) == [UInt64(samples.count)])
            #expect(whole.first?.sum == samples.reduce(0) { total, entry in
                guard case .quantity(let quantity) = entry.0.value else { return total }
                return total + quantity.value
            })
            #expect(try store.statistics(type: .stepCount, predicate: .all, scope: .notDetermined, appID: F.app, boundaries: boundaries).isEmpty)
            #expect(try store.statistics(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app, boundaries: [start]).isEmpty)
            let error = #expect(throws: BrokerError.self) {
                try store.statistics(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app, boundaries: [start, start + 1, start + 1])
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("boundaries[2]") == true)
        }
    }

    @Test func accessLogRowsNewestFirst() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples([
                F.steps(1, F.base, F.base), F.steps(2, F.base, F.base),
                Sample(uuid: F.uuid(3), type: .heartRate, startMicros: F.base, endMicros: F.base, value: .quantity(Quantity(60, "count/min"))),
            ], sourceAppID: F.app, now: 10)
            try store.logAccess(appID: F.other, operation: "read", method: "Query", type: .stepCount, count: 2, now: 20)
            _ = try store.saveSamples([F.steps(1, F.base, F.base)], sourceAppID: F.app, now: 30)  // unchanged retry
            _ = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(3)], appID: F.app, now: 40)

            let all = try store.accessLog(appID: nil, limit: 0)
            #expect(all.map(\.atMicros) == [40, 40, 30, 20, 10, 10])
            #expect(all.map(\.operation) == ["delete", "delete", "write", "read", "write", "write"])
            #expect(all.map(\.method) == ["Delete", "Delete", "Save", "Query", "Save", "Save"])
            // Within one instant the later row comes first.
            #expect(all.prefix(2).map(\.type) == [.heartRate, .stepCount])
            #expect(all.suffix(2).map(\.type) == [.heartRate, .stepCount])
            #expect(all.suffix(2).map(\.sampleCount) == [1, 2])
            #expect(all[2].sampleCount == 0)
            #expect(try store.accessLog(appID: F.other, limit: 10) == [
                AccessLogEntry(atMicros: 20, appID: F.other, operation: "read", type: .stepCount, sampleCount: 2, method: "Query"),
            ])
            #expect(try store.accessLog(appID: F.app, limit: 2).map(\.atMicros) == [40, 40])
            #expect(try store.accessLog(appID: "com.example.none", limit: 0).isEmpty)
        }
    }

    @Test func importChunksOfOneBatchShareOneRowPerAppAndType() throws {
        try F.withStore { store, _ throws in
            let heart = { (n: Int) in
                Sample(uuid: F.uuid(n), type: .heartRate, startMicros: F.base, endMicros: F.base, value: .quantity(Quantity(60, "count/min")))
            }
            func importing(_ samples: [Sample], as appID: String, batch: String, now: Int64) throws {
                let request = SaveRequest(samples: samples, sourceAppID: appID, method: "AdminImport", batchID: batch)
                _ = try store.saveSampleGroups([request], now: now)[0].get()
            }
            try importing([F.steps(1, F.base, F.base), F.steps(2, F.base, F.base)], as: F.app, batch: "b1", now: 10)
            try importing([F.steps(3, F.base, F.base), heart(4)], as: F.app, batch: "b1", now: 20)
            try importing([F.steps(5, F.base, F.base)], as: F.other, batch: "b1", now: 25)  // another app: its own row
            try importing([F.steps(6, F.base, F.base)], as: F.app, batch: "b2", now: 30)    // another run: its own row
            _ = try store.saveSamples([F.steps(7, F.base, F.base)], sourceAppID: F.app, now: 40)  // no batch: always a row
            _ = try store.saveSamples([F.steps(8, F.base, F.base)], sourceAppID: F.app, now: 40)
            let rows = try store.accessLog(appID: nil, limit: 0)
            #expect(rows.map(\.method) == ["Save", "Save", "AdminImport", "AdminImport", "AdminImport", "AdminImport"])
            #expect(rows.map(\.appID) == [F.app, F.app, F.app, F.other, F.app, F.app])
            // b1's step row took both chunks' counts and the later chunk's time.
            #expect(rows.map(\.sampleCount) == [1, 1, 1, 1, 1, 3])
            #expect(rows.map(\.atMicros) == [40, 40, 30, 25, 20, 20])
            #expect(rows.map(\.type) == [.stepCount, .stepCount, .stepCount, .stepCount, .heartRate, .stepCount])
        }
    }

    @Test func exportPagesBySequence() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples((0..<30).map { F.steps($0, F.base + Int64(30 - $0), F.base + Int64(30 - $0)) }, sourceAppID: F.app, now: 1)
            _ = try store.saveSamples((30..<40).map { F.steps($0, F.base, F.base) }, sourceAppID: F.other, now: 1)
            _ = try store.saveSamples([
                Sample(uuid: F.uuid(40), type: .sleepAnalysis, startMicros: F.base, endMicros: F.base + F.hour, value: .category(1)),
            ], sourceAppID: F.app, now: 1)
            _ = try store.deleteSamples(uuids: [F.uuid(5)], appID: F.app, now: 2)

            func export(_ type: ObjectType?, _ appID: String?, pageSize: Int) throws -> [String] {
                var uuids: [String] = []
                var position: Int64 = 0
                while true {
                    let page = try store.exportPage(type: type, appID: appID, afterSequence: position, pageSize: pageSize)
                    if page.samples.isEmpty {
                        #expect(page.lastSequence == position)
                        return uuids
                    }
                    #expect(page.samples.count <= pageSize)
                    #expect(page.lastSequence > position)
                    uuids += page.samples.map(\.uuid)
                    position = page.lastSequence
                }
            }
            let mine = (0..<30).filter { $0 != 5 }.map(F.uuid)
            let theirs = (30..<40).map(F.uuid)
            #expect(try export(nil, nil, pageSize: 7) == mine + theirs + [F.uuid(40)])
            #expect(try export(.stepCount, nil, pageSize: 4) == mine + theirs)
            #expect(try export(nil, F.app, pageSize: 3) == mine + [F.uuid(40)])
            #expect(try export(.stepCount, F.other, pageSize: 100) == theirs)
            #expect(try export(.sleepAnalysis, F.other, pageSize: 1).isEmpty)
        }
    }
}
