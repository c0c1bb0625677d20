import BrokerModel
import BrokerPolicy
import BrokerStore
import Testing

/// Correlations in the store: saved with their members, read through the member scopes, deleted
/// without their members, and a read-denied reader's correlation reads cost what its own rows cost.
@Suite("BrokerStore correlations")
struct CorrelationStoreTests {
    typealias F = Fixture
    static let reader = "com.example.cuff.denied"

    /// Blood pressure correlation `n` at `at` (members numbered 10n+1 and 10n+2), one minute long.
    static func pressure(_ n: Int, _ at: Int64, _ systolic: Double = 120, _ diastolic: Double = 80) -> Sample {
        let end = at + F.minute
        return Sample(uuid: F.uuid(n), type: .bloodPressure, startMicros: at, endMicros: end, value: .correlation([
            Sample(uuid: F.uuid(10 * n + 1), type: .bloodPressureSystolic, startMicros: at, endMicros: end, value: .quantity(Quantity(systolic, "mmHg"))),
            Sample(uuid: F.uuid(10 * n + 2), type: .bloodPressureDiastolic, startMicros: at, endMicros: end, value: .quantity(Quantity(diastolic, "mmHg"))),
        ]))
    }

    static func bothScopes(_ systolic: ReadScope, _ diastolic: ReadScope) -> [(type: ObjectType, scope: ReadScope)] {
        [(.bloodPressureSystolic, systolic), (.bloodPressureDiastolic, diastolic)]
    }

    static func read(_ store: BrokerStore, _ scopes: [(type: ObjectType, scope: ReadScope)], appID: String = F.app,
                     predicate: SamplePredicate = .all, sort: SampleSort = SampleSort(), limit: Int? = nil) throws -> [Sample] {
        try store.correlations(of: .bloodPressure, predicate: predicate, memberScopes: scopes, appID: appID, sort: sort, limit: limit)
    }

    static func memberUUIDs(_ sample: Sample) -> [String] {
        if case .correlation(let members) = sample.value { members.map(\.uuid) } else { [] }
    }

    @Test func savedCorrelationsReadBackWithTheirMembersAndCountAsSamplesToo() throws {
        try F.withStore { store, _ throws in
            let first = Self.pressure(1, F.base), second = Self.pressure(2, F.base + F.hour, 130, 85)
            let outcome = try store.saveSamples([first, second], sourceAppID: F.app, now: 5)
            #expect(outcome.saved == 6 && outcome.unchanged == 0)
            #expect(try store.saveSamples([second], sourceAppID: F.app, now: 6).unchanged == 3)
            let full = Self.bothScopes(.from(.min), .from(.min))
            let read = try Self.read(store, full)
            #expect(read.map(\.uuid) == [F.uuid(1), F.uuid(2)])
            #expect(read.map(Self.memberUUIDs) == [[F.uuid(11), F.uuid(12)], [F.uuid(21), F.uuid(22)]])
            #expect(read.allSatisfy { $0.sourceAppID == F.app && $0.createdMicros == 5 })
            #expect(try Self.read(store, full, sort: SampleSort(key: .endDate, descending: true), limit: 1).map(\.uuid) == [F.uuid(2)])
            // Members are samples of their own types.
            #expect(try F.readAll(store, type: .bloodPressureSystolic).map(\.uuid) == [F.uuid(11), F.uuid(21)])
            // Partial access: the systolic members only; none readable: nothing.
            #expect(try Self.read(store, Self.bothScopes(.from(.min), .notDetermined)).map(Self.memberUUIDs) == [[F.uuid(11)], [F.uuid(21)]])
            #expect(try Self.read(store, Self.bothScopes(.ownSamplesOnly, .ownSamplesOnly), appID: F.other).isEmpty)
            #expect(try Self.read(store, Self.bothScopes(.from(F.base + F.hour), .ownSamplesOnly), appID: F.other).map(\.uuid) == [F.uuid(2)])
            // Other content under a stored correlation uuid, or a member already in another correlation.
            #expect(throws: BrokerError.self) { try store.saveSamples([Self.pressure(2, F.base + 2 * F.hour)], sourceAppID: F.app, now: 8) }
            var reuse = Self.pressure(3, F.base + F.hour)
            if case .correlation(var members) = reuse.value {
                members[0] = Sample(uuid: F.uuid(21), type: .bloodPressureSystolic, startMicros: F.base + F.hour, endMicros: F.base + F.hour + F.minute,
                                    value: .quantity(Quantity(130, "mmHg")))
                reuse.value = .correlation(members)
            }
            let taken = #expect(throws: BrokerError.self) { try store.saveSamples([reuse], sourceAppID: F.app, now: 8) }
            #expect(taken?.code == .alreadyExists)
            // Another app may use the same uuids: its own namespace.
            #expect(try store.saveSamples([Self.pressure(2, F.base)], sourceAppID: F.other, now: 9).saved == 3)
            // Deleting a correlation keeps its objects. Deleting an object deletes the correlation
            // holding it too (a correlation cannot change), marked as deleted with it, not its other object.
            let gone = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(22)], appID: F.app, now: 10)
            #expect(gone.map(\.uuid) == [F.uuid(1), F.uuid(2), F.uuid(22)])
            #expect(gone.map(\.deletedWithAnObject) == [false, true, false])
            #expect(gone[1].objects.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
            // The other app's correlation under the same uuids is its own: untouched.
            #expect(try Self.read(store, full).map(\.sourceAppID) == [F.other])
            let own = ReadScope.ownSamplesOnly
            #expect(try F.readAll(store, type: .bloodPressureSystolic, scope: own).map(\.uuid) == [F.uuid(11), F.uuid(21)])
            #expect(try F.readAll(store, type: .bloodPressureDiastolic, scope: own).map(\.uuid) == [F.uuid(12)])
        }
    }

    /// A batch links a member it inserted itself from what it knows (seq, type, end) and a member
    /// stored before by looking it up: both kinds read back alike, by type and by end date.
    @Test func membersInsertedByTheBatchAndMembersStoredBeforeAreLinkedAlike() throws {
        try F.withStore { store, _ throws in
            let early = Self.pressure(1, F.base), late = Self.pressure(2, F.base + 3 * F.hour, 130, 85)
            // The late correlation's systolic member is stored first, alone; a plain sample moves the seqs on.
            guard case .correlation(let lateMembers) = late.value else { return }
            #expect(try store.saveSamples([lateMembers[0]], sourceAppID: F.app, now: 1).saved == 1)
            let step = Sample(uuid: F.uuid(500), type: .stepCount, startMicros: F.base, endMicros: F.base + F.minute, value: .quantity(Quantity(10, "count")))
            let outcome = try store.saveSamples([step, early, late], sourceAppID: F.app, now: 2)
            #expect(outcome.saved == 1 + 3 + 2 && outcome.unchanged == 1)
            let full = Self.bothScopes(.from(.min), .from(.min))
            #expect(try Self.read(store, full).map(Self.memberUUIDs) == [[F.uuid(11), F.uuid(12)], [F.uuid(21), F.uuid(22)]])
            // By member type: each link carries its member's type.
            #expect(try Self.read(store, Self.bothScopes(.from(.min), .notDetermined)).map(Self.memberUUIDs) == [[F.uuid(11)], [F.uuid(21)]])
            #expect(try Self.read(store, Self.bothScopes(.notDetermined, .from(.min))).map(Self.memberUUIDs) == [[F.uuid(12)], [F.uuid(22)]])
            // By end date (another app reading from a date): each link carries its member's end.
            let floor = F.base + F.hour
            #expect(try Self.read(store, Self.bothScopes(.from(floor), .from(floor)), appID: F.other).map(Self.memberUUIDs) == [[F.uuid(21), F.uuid(22)]])
            // Deleting a member inserted by the batch deletes its correlation, as one stored before does.
            let gone = try store.deleteSamples(uuids: [F.uuid(12), F.uuid(21)], appID: F.app, now: 3)
            #expect(gone.map(\.uuid) == [F.uuid(1), F.uuid(2), F.uuid(12), F.uuid(21)])
            #expect(try Self.read(store, full).isEmpty)
            // A later batch with a stored sample and a new correlation: only the new rows are linked.
            let again = try store.saveSamples([step, Self.pressure(3, F.base + 5 * F.hour)], sourceAppID: F.app, now: 4)
            #expect(again.saved == 3 && again.unchanged == 1)
            #expect(try Self.read(store, full).map(Self.memberUUIDs) == [[F.uuid(31), F.uuid(32)]])
            // A delete by type and predicate of a member type deletes the correlations holding what it deletes.
            let byType = try store.deleteSamples(type: .bloodPressureDiastolic, predicate: SamplePredicate(startMicros: F.base + 4 * F.hour, endMicros: F.base + 6 * F.hour), appID: F.app, now: 5)
            #expect(byType.map(\.uuid) == [F.uuid(3), F.uuid(32)] && byType.map(\.deletedWithAnObject) == [true, false])
            #expect(try Self.read(store, full).isEmpty)
            #expect(try F.readAll(store, type: .bloodPressureSystolic).map(\.uuid).contains(F.uuid(31)))
        }
    }

    @Test func aReadDeniedReadersCorrelationReadsCostTheSameAmongOthersAsAlone() throws {
        try F.withStore { crowded, _ throws in
            try F.withStore { alone, _ throws in
                // The reader first, then the same sentinel app in both (so the reader's index
                // entries are followed by the same next entry), then others in one store only.
                for store in [crowded, alone] {
                    _ = try store.saveSamples((0..<20).map { Self.pressure(100 + $0, F.base + Int64($0) * F.hour) }, sourceAppID: Self.reader, now: 1)
                    _ = try store.saveSamples([Self.pressure(900, F.base + 400 * 24 * F.hour)], sourceAppID: "com.example.sentinel", now: 1)
                }
                for app in ["com.example.clinic", "com.example.watch"] {
                    _ = try crowded.saveSamples((0..<500).map { Self.pressure(1_000 + $0, F.base - 10 * F.hour + Int64($0) * 5 * F.minute) }, sourceAppID: app, now: 2)
                }
                _ = try crowded.deleteSamples(uuids: (0..<40).map { F.uuid(1_000 + $0) }, appID: "com.example.clinic", now: 3)
                let denied = Self.bothScopes(.ownSamplesOnly, .ownSamplesOnly)
                let mixed = Self.bothScopes(.ownSamplesOnly, .notDetermined)
                for (label, scopes) in [("denied", denied), ("denied systolic only", mixed)] {
                    for predicate in [SamplePredicate.all, SamplePredicate(startMicros: F.base + 3 * F.hour, endMicros: F.base + 9 * F.hour)] {
                        for sort in [SampleSort(), SampleSort(key: .endDate, descending: true)] {
                            let (crowdedWork, crowdedRead) = try ScopedWorkTests.work(crowded) { try Self.read($0, scopes, appID: Self.reader, predicate: predicate, sort: sort, limit: 7) }
                            let (aloneWork, aloneRead) = try ScopedWorkTests.work(alone) { try Self.read($0, scopes, appID: Self.reader, predicate: predicate, sort: sort, limit: 7) }
                            #expect(crowdedRead.map(\.uuid) == aloneRead.map(\.uuid) && !crowdedRead.isEmpty, "\(label)")
                            #expect(crowdedRead.map(Self.memberUUIDs) == aloneRead.map(Self.memberUUIDs), "\(label)")
                            #expect(crowdedWork == aloneWork, "\(label): \(crowdedWork) steps among others, \(aloneWork) alone")
                        }
                    }
                }
                // Deleting another app's correlation uuid is skipped exactly as an unknown one; by type, its own only.
                let (crowdedWork, crowdedGone) = try ScopedWorkTests.work(crowded) { try $0.deleteSamples(uuids: [F.uuid(1_100), F.uuid(105)], appID: Self.reader, now: 4) }
                let (aloneWork, aloneGone) = try ScopedWorkTests.work(alone) { try $0.deleteSamples(uuids: [F.uuid(1_100), F.uuid(105)], appID: Self.reader, now: 4) }
                #expect(crowdedGone.map(\.uuid) == [F.uuid(105)] && aloneGone.map(\.uuid) == [F.uuid(105)])
                #expect(crowdedWork == aloneWork)
                let window = SamplePredicate(startMicros: F.base, endMicros: F.base + 5 * F.hour)
                let (crowdedTypeWork, crowdedTypeGone) = try ScopedWorkTests.work(crowded) { try $0.deleteSamples(type: .bloodPressure, predicate: window, appID: Self.reader, now: 5) }
                let (aloneTypeWork, aloneTypeGone) = try ScopedWorkTests.work(alone) { try $0.deleteSamples(type: .bloodPressure, predicate: window, appID: Self.reader, now: 5) }
                #expect(crowdedTypeGone.map(\.uuid) == aloneTypeGone.map(\.uuid) && crowdedTypeGone.count == 5)
                #expect(crowdedTypeWork == aloneTypeWork)
            }
        }
    }

    @Test func version11StoresGetEmptyCorrelationTablesInVersion12() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            #expect(try Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(11))).apply(to: database) == 11)
            #expect(try !database.hasTable("correlations"))
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration?.fromVersion == 11)
        #expect(store.migration?.toVersion == BrokerSchema.migrations.latestVersion)
        #expect(try store.saveSamples([Self.pressure(1, F.base)], sourceAppID: F.app, now: 1).saved == 3)
        #expect(try Self.read(store, Self.bothScopes(.from(.min), .from(.min))).count == 1)
    }
}
