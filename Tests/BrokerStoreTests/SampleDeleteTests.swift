import BrokerModel
import BrokerStore
import Testing

@Suite("BrokerStore sample deletes")
struct SampleDeleteTests {
    typealias F = Fixture

    /// Saves three samples of `F.app` (uuids 1–3) and two of `F.other` (uuids 10, 11).
    static func seed(_ store: BrokerStore) throws {
        _ = try store.saveSamples([
            F.steps(1, F.base, F.base + F.minute),
            F.steps(2, F.base + F.hour, F.base + F.hour + F.minute),
            F.steps(3, F.base + 2 * F.hour, F.base + 2 * F.hour + F.minute),
        ], sourceAppID: F.app, now: 1)
        _ = try store.saveSamples([
            F.steps(10, F.base, F.base + F.minute),
            F.steps(11, F.base + F.hour, F.base + F.hour + F.minute),
        ], sourceAppID: F.other, now: 1)
    }

    @Test func deletesOwnSamplesByUUIDIgnoringUnknownOnes() throws {
        try F.withStore { store, _ throws in
            try Self.seed(store)
            let deleted = try store.deleteSamples(uuids: [F.uuid(2), F.uuid(99), F.uuid(1), F.uuid(2)], appID: F.app, now: 50)
            #expect(deleted == [
                DeletedSample(uuid: F.uuid(2), type: .stepCount, startMicros: F.base + F.hour, endMicros: F.base + F.hour + F.minute, sourceAppID: F.app),
                DeletedSample(uuid: F.uuid(1), type: .stepCount, startMicros: F.base, endMicros: F.base + F.minute, sourceAppID: F.app),
            ])
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(10), F.uuid(11), F.uuid(3)])
            // Two tombstones, numbered after the five saves.
            #expect(try store.currentSequence() == 7)
            #expect(try store.deleteSamples(uuids: [F.uuid(2), F.uuid(99)], appID: F.app, now: 60).isEmpty)
            #expect(try store.deleteSamples(uuids: [], appID: F.app, now: 60).isEmpty)
            #expect(try store.currentSequence() == 7)
            // A deleted uuid is free again.
            #expect(try store.saveSamples([F.steps(1, F.base, F.base)], sourceAppID: F.app, now: 70).saved == 1)
        }
    }

    @Test func anotherAppsUUIDIsSkippedLikeAnUnknownOne() throws {
        try F.withStore { store, _ throws in
            try Self.seed(store)
            // uuids[2] is another app's sample: looked up in this app's namespace it does not exist,
            // exactly like uuids[1], which nobody holds. The own one goes; the other app's stays.
            let deleted = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(99), F.uuid(10)], appID: F.app, now: 50)
            #expect(deleted.map(\.uuid) == [F.uuid(1)])
            #expect(try F.readAll(store).map(\.uuid).contains(F.uuid(10)))
            #expect(try store.deleteSamples(uuids: [F.uuid(10)], appID: F.app, now: 51).isEmpty)
            #expect(try store.deleteSamples(uuids: [F.uuid(98)], appID: F.app, now: 51).isEmpty)
            #expect(try F.readAll(store).count == 4)
            #expect(try store.currentSequence() == 6)
            // An app that never saved deletes nothing, whatever the uuid.
            #expect(try store.deleteSamples(uuids: [F.uuid(10)], appID: "com.example.never", now: 52).isEmpty)
        }
    }

    @Test func deletesOwnMatchingSamplesByPredicate() throws {
        try F.withStore { store, _ throws in
            try Self.seed(store)
            _ = try store.saveSamples([
                Sample(uuid: F.uuid(20), type: .heartRate, startMicros: F.base, endMicros: F.base, value: .quantity(Quantity(60, "count/min"))),
            ], sourceAppID: F.app, now: 1)
            // [base, base + 2h) with strictStartDate: own steps 1 and 2; not 3, not the other app's, not heart rate.
            let predicate = SamplePredicate(startMicros: F.base, endMicros: F.base + 2 * F.hour, options: .strictStartDate)
            let deleted = try store.deleteSamples(type: .stepCount, predicate: predicate, appID: F.app, now: 50)
            #expect(deleted.map(\.uuid) == [F.uuid(1), F.uuid(2)])
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(10), F.uuid(11), F.uuid(3)])
            #expect(try F.readAll(store, type: .heartRate).map(\.uuid) == [F.uuid(20)])
            // Overlap semantics: a range ending exactly at sample 3's start misses it; one more µs catches it.
            let before = SamplePredicate(startMicros: nil, endMicros: F.base + 2 * F.hour)
            #expect(try store.deleteSamples(type: .stepCount, predicate: before, appID: F.app, now: 60).isEmpty)
            let touching = SamplePredicate(startMicros: nil, endMicros: F.base + 2 * F.hour + 1)
            #expect(try store.deleteSamples(type: .stepCount, predicate: touching, appID: F.app, now: 60).map(\.uuid) == [F.uuid(3)])
            #expect(try store.deleteSamples(type: .stepCount, predicate: .all, appID: F.app, now: 70).isEmpty)
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(10), F.uuid(11)])

            let log = try store.accessLog(appID: F.app, limit: 0)
            #expect(log.filter { $0.operation == "delete" }.map(\.sampleCount) == [1, 2])
        }
    }
}
