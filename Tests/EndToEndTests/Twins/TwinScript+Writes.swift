import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// The writing parts of the twins script, and invalid inputs.
extension TwinScript {
    /// Saving and deleting under uuids the other apps hold.
    static func otherAppsUUIDs(_ s: TwinStore) async throws {
        let mine = TwinFixtures.xUnderOthersUUID
        try await s.call("Save under another app's uuid", .save([mine]))
        try await s.call("Save it again", .save([mine]))
        var changed = mine
        changed.value = .quantity(Quantity(13, "count"))
        try await s.call("Save X's uuid with other content", .save([changed]))
        let theirs = TwinFixtures.otherHeldForDelete
        try await s.call("Delete another app's uuid", .delete(uuids: [theirs], type: nil, predicate: nil))
        try await s.call("Delete [own, another app's]", .delete(uuids: [TwinFixtures.xSamples[1].uuid, theirs], type: nil, predicate: nil))
        let range = SamplePredicate(startMicros: base + 13 * hour, endMicros: base + 15 * hour)
        try await s.call("Delete steps by predicate", .delete(uuids: [], type: .stepCount, predicate: range))
        try await s.call("Query steps after the deletes", .query(SampleQuery(type: .stepCount)))
    }

    /// Delete, save again, and what anchored queries then report.
    static func deleteThenResave(_ s: TwinStore) async throws {
        let resaved = TwinFixtures.xSamples[2]
        let gone = TwinFixtures.xSamples[3]
        try await s.anchored("Anchored steps before delete-then-resave", AnchoredQuery(type: .stepCount), keep: "d0")
        try await s.call("X deletes U", .delete(uuids: [resaved.uuid], type: nil, predicate: nil))
        try await s.call("X saves U again", .save([resaved]))
        try await s.call("X deletes V", .delete(uuids: [gone.uuid], type: nil, predicate: nil))
        try await s.anchored("Anchored steps without anchor after resave", AnchoredQuery(type: .stepCount))
        try await s.anchored("Anchored steps since before the delete", AnchoredQuery(type: .stepCount), from: "d0")
    }

    /// Errors: each must read the same in both stores.
    static func invalidInputs(_ s: TwinStore) async throws {
        let unknown = ObjectType("HKQuantityTypeIdentifierNoSuchThing")
        try await s.call("Query an unknown type", .query(SampleQuery(type: unknown)))
        try await s.call("Query with start after end", .query(SampleQuery(type: .stepCount, predicate: SamplePredicate(startMicros: base + hour, endMicros: base))))
        try await s.call("Query in a wrong unit", .query(SampleQuery(type: .stepCount, unit: "kg")))
        try await s.anchored("Anchored with a forged anchor", AnchoredQuery(type: .stepCount, anchor: [1, 2, 3, 4]))
        try await s.anchored("Anchored steps with a heart-rate anchor", AnchoredQuery(type: .stepCount), from: "0-\(ObjectType.heartRate.identifier)")
        try await s.call("Statistics sum of heart rate", .statistics(StatisticsQuery(type: .heartRate, predicate: .all, options: .sum)))
        try await s.call("Statistics of sleep", .statistics(StatisticsQuery(type: .sleepAnalysis, predicate: .all, options: .sum)))
        try await s.call("Statistics per day without bounds", .statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum, interval: .day)))
        try await s.call("Statistics in a bad time zone", .statistics(StatisticsQuery(type: .stepCount, predicate: windowed(.stepCount), options: .sum, interval: .day, timeZone: "Mars/Olympus")))
        var backwards = TwinFixtures.xLater(5)
        backwards.endMicros = backwards.startMicros - 1
        try await s.call("Save a sample ending before it starts", .save([backwards]))
        try await s.call("Save a bad uuid", .save([TwinFixtures.quantity("not-a-uuid", .stepCount, base, base + 1, 1, "count")]))
        try await s.call("Save a duplicate uuid in one batch", .save([TwinFixtures.xLater(6), TwinFixtures.xLater(6)]))
        try await s.call("Save an unshared type", .save([TwinFixtures.quantity(TwinFixtures.uuid(0xa000_0009, 1), .bodyMass, base, base + 1, 70, "kg")]))
        try await s.call("Delete with nothing named", .delete(uuids: [], type: nil, predicate: nil))
        try await s.call("Delete a bad uuid", .delete(uuids: ["zzz"], type: nil, predicate: nil))
        try await s.call("AuthorizationStatus of an unasked type", .authorizationStatus(.bodyMass))
        try await s.call("Read characteristics never asked", .readCharacteristics([.dateOfBirth]))
        try await s.call("Observe an unknown type", .observe([unknown]))
    }
}
