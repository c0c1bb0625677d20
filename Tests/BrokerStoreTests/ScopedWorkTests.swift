import BrokerModel
import BrokerPolicy
import BrokerStore
import Testing

/// The work a read does depends only on what its caller may see.
///
/// Two stores hold the same samples the reader may see, saved in the same order; one also holds
/// other apps' samples, deletions and pruned deletions the reader may not see. SQLite's count of
/// virtual-machine steps (`BrokerStore.statementWork`) around each read must be equal in both,
/// exactly: every row a scan visits costs steps, so a read that touched a single invisible row
/// would differ. (A b-tree seek is one step however large the tree: that part is not counted.)
/// Both stores also hold the same few "sentinel" samples of another app at the far ends of time:
/// a range scan stops on the first entry past its range, and without them that probe would find
/// an entry in one store and the end of the index in the other — one step, not a row read.
@Suite("Reads cost what the caller may see")
struct ScopedWorkTests {
    typealias F = Fixture
    static let reader = "com.example.denied"
    static let day: Int64 = 24 * F.hour

    /// The reader's own steps, sleep-like long steps, and heart rate: the same in both stores.
    static func saveOwn(_ store: BrokerStore) throws {
        let steps = (0..<300).map { F.steps(1_000 + $0, F.base + Int64($0) * 10 * F.minute, F.base + Int64($0) * 10 * F.minute + F.minute, count: Double($0 % 17)) }
        _ = try store.saveSamples(steps, sourceAppID: reader, now: 1)
        _ = try store.saveSamples([F.steps(1_500, F.base - 2 * F.hour, F.base + F.hour)], sourceAppID: reader, now: 1)
    }

    /// The same few samples of another app in both stores, far outside every range read here (see above).
    static func saveSentinels(_ store: BrokerStore) throws {
        let far = 40 * 365 * day
        _ = try store.saveSamples([
            F.steps(900_001, F.base - far, F.base - far), F.steps(900_002, F.base + far, F.base + far),
            Sample(uuid: F.uuid(900_003), type: .heartRate, startMicros: F.base - far, endMicros: F.base - far, value: .quantity(Quantity(60, "count/min"))),
            Sample(uuid: F.uuid(900_004), type: .heartRate, startMicros: F.base + far, endMicros: F.base + far, value: .quantity(Quantity(60, "count/min"))),
            F.steps(900_005, F.base + far + 1, F.base + far + 1),
        ], sourceAppID: "com.example.sentinel", now: 1)
        // And a deletion, so the tombstone indexes have an entry past every range too.
        _ = try store.deleteSamples(uuids: [F.uuid(900_005)], appID: "com.example.sentinel", now: 10)  // after every prune cut-off here
    }

    /// Other apps' samples the reader may not see: minute steps over the same days, a 26-year
    /// sample, samples under the reader's own uuids, deletions, and pruned deletions.
    static func saveOthers(_ store: BrokerStore, endingBefore floor: Int64 = .max) throws {
        for app in ["com.example.phone", "com.example.watch"] {
            let minutes = (0..<2_000).map { F.steps(10_000 + $0, F.base - Self.day + Int64($0) * F.minute, F.base - Self.day + Int64($0) * F.minute + F.minute) }
                .filter { $0.endMicros < floor }
            _ = try store.saveSamples(minutes, sourceAppID: app, now: 2)
            _ = try store.saveSamples([F.steps(1_000, F.base, F.base + F.minute)].filter { $0.endMicros < floor }, sourceAppID: app, now: 2)
            _ = try store.deleteSamples(uuids: minutes.prefix(50).map(\.uuid), appID: app, now: 3)
        }
        let long = F.steps(90_000, F.base - 26 * 365 * Self.day, min(F.base + F.hour, floor - 1))
        _ = try store.saveSamples([long], sourceAppID: "com.example.archive", now: 2)
        _ = try store.pruneTombstones(deletedBefore: 4)
        _ = try store.deleteSamples(uuids: (50..<80).map { F.uuid(10_000 + $0) }, appID: "com.example.phone", now: 5)
    }

    /// The same source order in both stores: apps the reader may not see first, then ones it may.
    static func setPriority(_ store: BrokerStore) throws {
        try store.setSourcePriority(of: .stepCount, appIDs: ["com.example.archive", "com.example.phone", reader, "com.example.watch", "com.example.nobody"])
    }

    /// The work of `body` on `store`.
    static func work<T>(_ store: BrokerStore, _ body: (BrokerStore) throws -> T) rethrows -> (Int64, T) {
        let before = store.statementWork()
        let result = try body(store)
        return (store.statementWork() - before, result)
    }

    /// Every read an app can make, run on both stores with their results and work compared.
    static func compareReads(_ crowded: BrokerStore, _ alone: BrokerStore, scope: ReadScope, sourceLabel: String) throws {
        func same<T: Equatable>(_ label: String, _ body: (BrokerStore) throws -> T) throws {
            let (crowdedWork, crowdedResult) = try work(crowded, body)
            let (aloneWork, aloneResult) = try work(alone, body)
            #expect(crowdedResult == aloneResult, "\(sourceLabel) \(label): results differ")
            #expect(crowdedWork == aloneWork, "\(sourceLabel) \(label): \(crowdedWork) steps among others, \(aloneWork) alone")
        }
        let predicates = [
            SamplePredicate.all,
            SamplePredicate(startMicros: F.base + F.hour, endMicros: F.base + 2 * F.hour),
            SamplePredicate(startMicros: F.base, endMicros: F.base + 20 * F.hour, options: .strictStartDate),
            SamplePredicate(startMicros: F.base - F.hour, endMicros: nil, options: .strictEndDate),
            SamplePredicate(startMicros: nil, endMicros: F.base + 3 * F.hour, options: [.strictStartDate, .strictEndDate]),
        ]
        for (index, predicate) in predicates.enumerated() {
            for descending in [false, true] {
                for key in [SampleSort.Key.startDate, .endDate] {
                    try same("query \(index) \(key) \(descending)") { store in
                        try F.readAll(store, predicate: predicate, scope: scope, appID: reader,
                                      sort: SampleSort(key: key, descending: descending), pageSize: 7).map(\.uuid)
                    }
                }
            }
            try same("statistics \(index)") { store in
                try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: reader,
                                     boundaries: (0...3).map { F.base - Self.day + $0 * Self.day })
            }
            // Days on whole hours: their hours come from the rollups (docs/STATISTICS.md).
            try same("statistics on whole hours \(index)") { store in
                try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: reader,
                                     boundaries: (0...3).map { F.base / F.hour * F.hour - Self.day + $0 * Self.day })
            }
            try same("merged statistics on whole hours \(index)") { store in
                try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: reader,
                                     boundaries: (0...72).map { F.base / F.hour * F.hour - Self.day + $0 * F.hour }, mergeSources: true)
            }
            // Merged by the source order (which names apps the reader may not see, in both stores).
            for hours in [24, 1] {
                try same("merged statistics \(index) per \(hours) h") { store in
                    try store.statistics(type: .stepCount, predicate: predicate, scope: scope, appID: reader,
                                         boundaries: (0...(72 / hours)).map { F.base - Self.day + Int64($0 * hours) * F.hour }, mergeSources: true)
                }
            }
        }
        try same("statistics of a type the reader has none of") { store in
            try store.statistics(type: .heartRate, predicate: .all, scope: scope, appID: reader,
                                 boundaries: (0...30).map { F.base - 30 * Self.day + $0 * Self.day })
        }
        try same("pruned deletions") { store in
            try store.prunedVisibleSequence(type: .stepCount, scope: scope, appID: reader)
        }
    }

    /// Anchored changes after the given positions, page by page, compared in both stores; returns the new positions.
    static func compareChanges(_ crowded: BrokerStore, _ alone: BrokerStore, scope: ReadScope, after positions: (Int64, Int64)) throws -> (Int64, Int64) {
        func changes(_ store: BrokerStore, after: Int64) throws -> (work: Int64, uuids: [String], position: Int64) {
            let through = try store.currentSequence()
            var (total, uuids, position) = (Int64(0), [String](), after)
            while true {
                let (work, page) = try work(store) { store in
                    try store.changes(type: .stepCount, predicate: .all, scope: scope, appID: reader,
                                      afterSequence: position, throughSequence: through, pageSize: 64)
                }
                total += work
                uuids += page.added.map(\.uuid) + page.deleted.map { "-" + $0.uuid }
                position = page.lastSequence
                if !page.hasMore { return (total, uuids, position) }
            }
        }
        let crowdedChanges = try changes(crowded, after: positions.0)
        let aloneChanges = try changes(alone, after: positions.1)
        #expect(crowdedChanges.uuids == aloneChanges.uuids)
        #expect(crowdedChanges.work == aloneChanges.work, "anchored changes: \(crowdedChanges.work) steps among others, \(aloneChanges.work) alone")
        return (crowdedChanges.position, aloneChanges.position)
    }

    @Test func aReadDeniedAppsReadsCostTheSameAmongOthersAsAlone() throws {
        try F.withStore { crowded, _ throws in
            try F.withStore { alone, _ throws in
                for store in [crowded, alone] {
                    try Self.saveOwn(store)
                    try Self.saveSentinels(store)
                    try Self.setPriority(store)
                }
                try Self.saveOthers(crowded)
                try Self.compareReads(crowded, alone, scope: .ownSamplesOnly, sourceLabel: "own only")
                var positions = try Self.compareChanges(crowded, alone, scope: .ownSamplesOnly, after: (0, 0))
                #expect(try Self.compareChanges(crowded, alone, scope: .ownSamplesOnly, after: (0, 0)) == positions)
                // Others write and delete; the reader deletes one of its own and saves one more.
                try Self.saveOthers(crowded)
                for store in [crowded, alone] {
                    _ = try store.deleteSamples(uuids: [F.uuid(1_003)], appID: Self.reader, now: 6)
                    _ = try store.saveSamples([F.steps(1_600, F.base, F.base + F.minute)], sourceAppID: Self.reader, now: 6)
                }
                positions = try Self.compareChanges(crowded, alone, scope: .ownSamplesOnly, after: positions)
                // Nothing it may see changed: the same position, the same (empty) answer and work.
                try Self.saveOthers(crowded)
                let again = try Self.compareChanges(crowded, alone, scope: .ownSamplesOnly, after: positions)
                #expect(again == positions)
                // Deletes by uuid: another app's uuid is skipped exactly as an unknown one.
                let (crowdedWork, crowdedDeleted) = try Self.work(crowded) { try $0.deleteSamples(uuids: [F.uuid(10_500), F.uuid(1_000)], appID: Self.reader, now: 7) }
                let (aloneWork, aloneDeleted) = try Self.work(alone) { try $0.deleteSamples(uuids: [F.uuid(10_500), F.uuid(1_000)], appID: Self.reader, now: 7) }
                #expect(crowdedDeleted.map(\.uuid) == [F.uuid(1_000)] && aloneDeleted.map(\.uuid) == [F.uuid(1_000)])
                #expect(crowdedWork == aloneWork)
                // Deletes by predicate walk the app's own rows only.
                let window = SamplePredicate(startMicros: F.base, endMicros: F.base + 3 * F.hour)
                let (crowdedPredicateWork, crowdedGone) = try Self.work(crowded) { try $0.deleteSamples(type: .stepCount, predicate: window, appID: Self.reader, now: 8) }
                let (alonePredicateWork, aloneGone) = try Self.work(alone) { try $0.deleteSamples(type: .stepCount, predicate: window, appID: Self.reader, now: 8) }
                #expect(crowdedGone.map(\.uuid) == aloneGone.map(\.uuid) && !crowdedGone.isEmpty)
                #expect(crowdedPredicateWork == alonePredicateWork, "delete by predicate: \(crowdedPredicateWork) steps among others, \(alonePredicateWork) alone")
            }
        }
    }

    @Test func aLimitedAppsReadsNeverTouchWhatEndsBeforeItsFloor() throws {
        let floor = F.base + 5 * F.hour
        try F.withStore { crowded, _ throws in
            try F.withStore { alone, _ throws in
                // Both hold the reader's samples and what others stored that it may see (ending at
                // or after the floor); only one also holds what others stored ending before it.
                for store in [crowded, alone] {
                    try Self.saveOwn(store)
                    try Self.saveSentinels(store)
                    try Self.setPriority(store)
                    _ = try store.saveSamples((0..<400).map { F.steps(20_000 + $0, floor + Int64($0) * F.minute, floor + Int64($0) * F.minute + F.minute) },
                                              sourceAppID: "com.example.watch", now: 2)
                }
                try Self.saveOthers(crowded, endingBefore: floor)
                try Self.compareReads(crowded, alone, scope: .from(floor), sourceLabel: "limited")
                _ = try Self.compareChanges(crowded, alone, scope: .from(floor), after: (0, 0))
            }
        }
    }

    @Test func anAnchorExpiresOnlyForPrunedDeletionsItsReaderCouldSee() throws {
        try F.withStore { store, _ throws in
            let floor = F.base + F.hour
            // Another app's samples ending before the floor (a) and after it (b, c), the reader's own (d).
            _ = try store.saveSamples([
                F.steps(1, F.base, F.base + F.minute), F.steps(2, floor, floor + F.minute), F.steps(3, floor + F.hour, floor + F.hour),
            ], sourceAppID: F.other, now: 1)
            _ = try store.saveSamples([F.steps(4, F.base, F.base)], sourceAppID: Self.reader, now: 1)  // seq 4
            _ = try store.deleteSamples(uuids: [F.uuid(2)], appID: F.other, now: 2)  // seq 5, ends after the floor
            _ = try store.deleteSamples(uuids: [F.uuid(3)], appID: F.other, now: 2)  // seq 6, ends after the floor
            _ = try store.deleteSamples(uuids: [F.uuid(1)], appID: F.other, now: 2)  // seq 7, ends before it
            func pruned(_ scope: ReadScope) throws -> Int64 {
                try store.prunedVisibleSequence(type: .stepCount, scope: scope, appID: Self.reader)
            }
            #expect(try store.pruneTombstones(deletedBefore: 3) == 3)
            #expect(try store.prunedThroughSequence() == 7)
            #expect(try pruned(.from(.min)) == 7)       // full access could see all three
            #expect(try pruned(.from(floor)) == 6)      // limited: not the one ending before its floor
            #expect(try pruned(.from(floor + F.hour)) == 6)
            #expect(try pruned(.from(floor + 2 * F.hour)) == 0)
            #expect(try pruned(.ownSamplesOnly) == 0)   // denied: none of them
            #expect(try store.prunedVisibleSequence(type: .heartRate, scope: .from(.min), appID: Self.reader) == 0)
            // The reader's own deletion, pruned, counts for it whatever its scope.
            _ = try store.deleteSamples(uuids: [F.uuid(4)], appID: Self.reader, now: 4)  // seq 8
            #expect(try store.pruneTombstones(deletedBefore: 5) == 1)
            #expect(try pruned(.ownSamplesOnly) == 8)
            #expect(try pruned(.from(floor + 2 * F.hour)) == 8)
            // Marks survive a reopen of the same file (they are rows, not memory): checked by the
            // pruned figures staying put after more unrelated pruning.
            #expect(try store.pruneTombstones(deletedBefore: 100) == 0)
            #expect(try pruned(.from(floor)) == 8)
        }
    }
}
