import BrokerModel
import BrokerPolicy
@testable import BrokerStore
import Testing

/// Version 15: correlations that lost an object under a build before the rule "deleting an object
/// deletes its correlation" are deleted at open, told to exactly the readers who may see them now.
extension SchemaUpgradeTests {
    typealias F = Fixture
    typealias C = CorrelationStoreTests

    /// Food correlation `n` at `at` holding `kcal` (uuid 10n+1) and, when given, `protein` (uuid 10n+2).
    static func meal(_ n: Int, _ at: Int64, kcal: Double, protein: Double?) -> Sample {
        var objects = [Sample(uuid: F.uuid(10 * n + 1), type: .dietaryEnergyConsumed, startMicros: at, endMicros: at + F.hour, value: .quantity(Quantity(kcal, "kcal")))]
        if let protein {
            objects.append(Sample(uuid: F.uuid(10 * n + 2), type: .dietaryProtein, startMicros: at, endMicros: at + F.hour, value: .quantity(Quantity(protein, "g"))))
        }
        return Sample(uuid: F.uuid(n), type: .food, startMicros: at, endMicros: at + F.hour, value: .correlation(objects))
    }

    static let foodScopes: [(type: ObjectType, scope: ReadScope)] = [(.dietaryEnergyConsumed, .from(.min)), (.dietaryProtein, .from(.min))]

    static func changes(_ store: BrokerStore, _ type: ObjectType, _ scopes: [(type: ObjectType, scope: ReadScope)], appID: String = F.app, after: Int64 = 0) throws -> ChangePage {
        try store.correlationChanges(
            of: type, predicate: .all, memberScopes: scopes, appID: appID, afterSequence: after,
            throughSequence: try store.currentSequence(), limit: nil)
    }

    /// (uuid, object_count) of every correlation, by seq.
    static func objectCounts(_ store: BrokerStore) throws -> [String] {
        try Self.texts(store.database, "SELECT hex(uuid) || ' ' || object_count FROM correlations ORDER BY seq").map { String(decoding: $0, as: UTF8.self) }
    }

    static func hex(_ n: Int) -> String { String(F.uuid(n).filter { $0 != "-" }).uppercased() }

    @Test func version14CorrelationsThatLostAnObjectAreDeletedInVersion15ForTheReadersWhoMaySeeThem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let full = C.bothScopes(.from(.min), .from(.min))
        let systolicOnly = C.bothScopes(.from(.min), .notDetermined)
        let diastolicOnly = C.bothScopes(.notDetermined, .from(.min))
        let fromLater = C.bothScopes(.from(F.base + 2 * F.hour), .from(F.base + 2 * F.hour))
        let denied = C.bothScopes(.ownSamplesOnly, .ownSamplesOnly)
        // What each reader had synced before the loss, and the store's position then.
        let before: (full: Int64, systolic: Int64, diastolic: Int64, food: Int64, sequence: Int64)
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            // 1 stays whole; 2 (saved an hour later) loses its diastolic; meal 3 loses its protein, meal 4 its only object.
            _ = try store.saveSamples([
                C.pressure(1, F.base), C.pressure(2, F.base + F.hour, 130, 85),
                Self.meal(3, F.base, kcal: 600, protein: 30), Self.meal(4, F.base + 3 * F.hour, kcal: 200, protein: nil),
            ], sourceAppID: F.app, now: 5)
            #expect(try Self.objectCounts(store) == ["\(Self.hex(1)) 2", "\(Self.hex(2)) 2", "\(Self.hex(3)) 2", "\(Self.hex(4)) 1"])
            let fullPage = try Self.changes(store, .bloodPressure, full)
            #expect(fullPage.added.map(\.uuid) == [F.uuid(1), F.uuid(2)])
            let diastolicPage = try Self.changes(store, .bloodPressure, diastolicOnly, appID: F.other)
            #expect(diastolicPage.added.map(\.uuid) == [F.uuid(1), F.uuid(2)])
            let limitedPage = try Self.changes(store, .bloodPressure, fromLater, appID: F.other)
            #expect(limitedPage.added.isEmpty)
            let foodPage = try Self.changes(store, .food, Self.foodScopes)
            #expect(foodPage.added.map(\.uuid) == [F.uuid(3), F.uuid(4)])
            #expect(try Self.changes(store, .bloodPressure, denied, appID: F.other).added.isEmpty)
            before = (fullPage.lastSequence, try Self.changes(store, .bloodPressure, systolicOnly, appID: F.other).lastSequence,
                      diastolicPage.lastSequence, foodPage.lastSequence, try store.currentSequence())
            // As a build before the rule left the store: each object deleted alone (the trigger drops
            // its link; the correlation stays), and no object_count (version 14).
            for uuid in [22, 32, 41] {
                try store.database.execute("DELETE FROM samples WHERE uuid = X'\(Self.hex(uuid))'")
            }
            try store.database.execute("ALTER TABLE correlations DROP COLUMN object_count")
            try store.database.setUserVersion(14)
            #expect(try C.read(store, full).map(\.uuid) == [F.uuid(1), F.uuid(2)])
            store.close()
        }
        let repaired: Int64
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            defer { store.close() }
            #expect(store.migration?.fromVersion == 14 && store.migration?.toVersion == 15)
            // Two deletions, each at a new position: reading 2 and meal 4.
            #expect(try store.currentSequence() == before.sequence + 2)
            // A query no longer returns reading 2; its systolic stays a sample; reading 1 is untouched.
            let read = try C.read(store, full)
            #expect(read.map(\.uuid) == [F.uuid(1)] && read.map(C.memberUUIDs) == [[F.uuid(11), F.uuid(12)]])
            #expect(try F.readAll(store, type: .bloodPressureSystolic).map(\.uuid) == [F.uuid(11), F.uuid(21)])
            #expect(try F.readAll(store, type: .bloodPressureDiastolic).map(\.uuid) == [F.uuid(12)])
            // Readers who may see reading 2 now (through its systolic) are told; nothing is added.
            for (scopes, appID, anchor) in [(full, F.app, before.full), (systolicOnly, F.other, before.systolic)] {
                let page = try Self.changes(store, .bloodPressure, scopes, appID: appID, after: anchor)
                #expect(page.added.isEmpty && page.deleted.map(\.uuid) == [F.uuid(2)] && page.deleted.map(\.sourceAppID) == [F.app])
                #expect(page.lastSequence > anchor)
            }
            // Readers who cannot see it now are told nothing and keep their position: one that saw it
            // only through the lost diastolic (where that object ended is not stored), one whose
            // date is after it, one denied reading.
            // (The last two had seen nothing: any earlier position stands for their anchor.)
            for (scopes, anchor) in [(diastolicOnly, before.diastolic), (fromLater, before.sequence), (denied, before.sequence)] {
                let page = try Self.changes(store, .bloodPressure, scopes, appID: F.other, after: anchor)
                #expect(page.added.isEmpty && page.deleted.isEmpty && page.lastSequence == anchor)
            }
            // Meal 3 kept its energy: nothing says it had protein, so it stays, holding one object.
            // Meal 4 held nothing: deleted, told to no one (no reader could see it).
            let food = try Self.changes(store, .food, Self.foodScopes, after: before.food)
            #expect(food.added.isEmpty && food.deleted.isEmpty && food.lastSequence == before.food)
            #expect(try store.correlations(of: .food, predicate: .all, memberScopes: Self.foodScopes, appID: F.app, sort: SampleSort(), limit: nil)
                .map(C.memberUUIDs) == [[F.uuid(31)]])
            #expect(try Self.texts(store.database, "SELECT hex(uuid) FROM tombstones ORDER BY seq") == [Array(Self.hex(2).utf8), Array(Self.hex(4).utf8)])
            #expect(try Self.texts(store.database, "SELECT count(*) FROM correlation_tombstone_members") == [Array("1".utf8)])
            // Every correlation left records the objects it holds; a new one the objects it is saved with.
            #expect(try Self.objectCounts(store) == ["\(Self.hex(1)) 2", "\(Self.hex(3)) 1"])
            _ = try store.saveSamples([C.pressure(5, F.base + 5 * F.hour)], sourceAppID: F.app, now: 6)
            #expect(try Self.objectCounts(store).last == "\(Self.hex(5)) 2")
            #expect(try Self.texts(store.database, "SELECT count(*) FROM sqlite_temp_master") == [Array("0".utf8)])
            repaired = try store.currentSequence()
        }
        // Reopened: nothing runs again.
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration == nil)
        #expect(try store.currentSequence() == repaired)
        #expect(try C.read(store, full).map(\.uuid) == [F.uuid(1), F.uuid(5)])
        #expect(try Self.texts(store.database, "SELECT count(*) FROM tombstones") == [Array("2".utf8)])
    }
}
