import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// Script steps shared by the twins tests; each runs identically on either store.
extension TwinStore {
    /// Hello, authorization for X's three types, and X's own samples saved.
    func openAndSaveOwn() async throws {
        try await hello()
        let types = TwinFixtures.types
        try await call("RequestAuthorization", .requestAuthorization(share: types, read: types))
        try await call("Save X's samples", .save(TwinFixtures.xSamples))
    }

    /// The other apps add a new generation of samples and delete some of their older ones.
    func othersWriteAndDelete(generation: Int, count: Int = 120) async throws {
        try await others { stores in
            for (app, store) in stores.enumerated() {
                _ = try await store.save(TwinFixtures.otherSamples(app: app, count: count, generation: generation))
                let older = TwinFixtures.otherSamples(app: app, count: count, generation: generation - 1)
                _ = try await store.delete(older.enumerated().filter { $0.offset % 4 == 1 }.map(\.element.uuid))
            }
        }
    }

    /// The first frame's response, or its status, of the last call recorded (for named expectations).
    var lastReply: (response: Proto.ServerFrame.Response?, status: Status?) {
        let frame = transcript.entries.last?.frames.last
        return (frame?.response, frame?.status)
    }

    /// Every anchored page of the last call recorded, merged: added uuids and deleted uuids.
    var lastAnchoredChanges: (added: [String], deleted: [String]) {
        var added: [String] = []
        var deleted: [String] = []
        for case .anchoredPage(let page)? in transcript.entries.last?.frames.map(\.item) ?? [] {
            added += page.added.map(\.uuid)
            deleted += page.deletedUUIDs
        }
        return (added, deleted)
    }
}

/// A query over X's day, with the given predicate options.
func windowed(_ type: ObjectType, _ options: SamplePredicate.Options = []) -> SamplePredicate {
    SamplePredicate(startMicros: base, endMicros: base + 24 * hour, options: options)
}
