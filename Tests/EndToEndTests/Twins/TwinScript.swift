import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// The whole script: every app-socket method as X, with the other apps acting in between (in A).
enum TwinScript {
    /// Every step in order; the differential test runs this on both stores.
    static func run(_ s: TwinStore) async throws {
        let types = TwinFixtures.types
        try await preamble(s)
        try await queries(s)
        try await anchoredQueries(s)
        try await statistics(s)
        try await observing(s)
        try await otherAppsUUIDs(s)
        try await deleteThenResave(s)
        try await invalidInputs(s)

        // Tombstones pruned at start: an anchor taken now must keep working as long as X saw no deletion.
        for type in types { try await s.anchored("Anchored \(type.identifier) before pruning", AnchoredQuery(type: type), keep: "p-\(type.identifier)") }
        try await s.othersWriteAndDelete(generation: 3)
        try await s.restart(["--tombstone-retention-days", "0"])
        for type in types { try await s.anchored("Anchored \(type.identifier) after pruning", AnchoredQuery(type: type), from: "p-\(type.identifier)") }
        try await s.call("Query all steps at the end", .query(SampleQuery(type: .stepCount)))
    }

    /// The script without the parts the leak items are about (follow-up anchors, other apps' uuids,
    /// delete-then-resave, pruning): what today's broker must already answer identically.
    static func runWithoutLeakItems(_ s: TwinStore) async throws {
        try await preamble(s)
        try await queries(s)
        for type in TwinFixtures.types {
            try await s.anchored("Anchored \(type.identifier) first", AnchoredQuery(type: type), keep: "0-\(type.identifier)")
        }
        try await statistics(s)
        try await observing(s)
        try await invalidInputs(s)
    }

    /// Hello, the authorization methods, and X's own samples saved (twice: the second time unchanged).
    static func preamble(_ s: TwinStore) async throws {
        let types = TwinFixtures.types
        try await s.hello()
        try await s.call("RequestStatus before asking", .requestStatus(share: types, read: types))
        try await s.call("RequestAuthorization", .requestAuthorization(share: types, read: types))
        for type in types { try await s.call("AuthorizationStatus \(type.identifier)", .authorizationStatus(type)) }
        try await s.call("RequestStatus after asking", .requestStatus(share: types, read: types))
        try await s.call("EarliestAuthorizedSampleDate", .earliestAuthorizedSampleDate(types))
        try await s.call("EarliestPermittedSampleDate", .earliestPermittedSampleDate)
        try await s.call("Save X's samples", .save(TwinFixtures.xSamples))
        try await s.call("Save X's samples again", .save(TwinFixtures.xSamples))
    }
}
