import BrokerModel
import BrokerPolicy
import BrokerStore
import Testing

/// Anchored changes of correlation types in the store: added correlations showing the objects the
/// reader may see, deletions of correlations it could have seen, positions that move only for
/// those, pruning that expires only visible anchors, and a read-denied reader's changes costing
/// what its own rows cost.
@Suite("BrokerStore correlation changes")
struct CorrelationChangeStoreTests {
    typealias F = Fixture
    typealias C = CorrelationStoreTests
    static let reader = CorrelationStoreTests.reader

    static func changes(
        _ store: BrokerStore, _ scopes: [(type: ObjectType, scope: ReadScope)], appID: String = F.app, after: Int64 = 0,
        predicate: SamplePredicate = .all, limit: Int? = nil
    ) throws -> ChangePage {
        try store.correlationChanges(
            of: .bloodPressure, predicate: predicate, memberScopes: scopes, appID: appID, afterSequence: after,
            throughSequence: try store.currentSequence(), limit: limit)
    }

    /// What a page shows, as comparable text: added uuids with their objects' uuids, deletions, position.
    static func summary(_ page: ChangePage) -> String {
        let added = page.added.map { "\($0.uuid)\(C.memberUUIDs($0))" }
        let deleted = page.deleted.map { "\($0.sourceAppID)/\($0.uuid)" }
        return "added \(added) deleted \(deleted) more \(page.hasMore)"
    }

    @Test func addedAndDeletedCorrelationsFollowTheMemberScopes() throws {
        try F.withStore { store, _ throws in
            let full = C.bothScopes(.from(.min), .from(.min))
            #expect(try Self.changes(store, full).added.isEmpty)
            _ = try store.saveSamples([C.pressure(1, F.base), C.pressure(2, F.base + 2 * F.hour)], sourceAppID: F.app, now: 5)
            let first = try Self.changes(store, full)
            #expect(first.added.map(\.uuid) == [F.uuid(1), F.uuid(2)] && first.deleted.isEmpty)
            #expect(first.added.map(C.memberUUIDs) == [[F.uuid(11), F.uuid(12)], [F.uuid(21), F.uuid(22)]])
            #expect(first.lastSequence == (try store.currentSequence()))
            // Nothing new: the same position back.
            let quiet = try Self.changes(store, full, after: first.lastSequence)
            #expect(quiet.added.isEmpty && quiet.deleted.isEmpty && quiet.lastSequence == first.lastSequence)
            // A limit of one: the first, then the second from its position.
            let one = try Self.changes(store, full, limit: 1)
            #expect(one.added.map(\.uuid) == [F.uuid(1)] && one.hasMore)
            #expect(try Self.changes(store, full, after: one.lastSequence).added.map(\.uuid) == [F.uuid(2)])
            // Systolic only: the objects shown are the systolic ones.
            #expect(try Self.changes(store, C.bothScopes(.from(.min), .notDetermined)).added.map(C.memberUUIDs) == [[F.uuid(11)], [F.uuid(21)]])
            // Limited from the second reading: only it, for another app.
            let limited = C.bothScopes(.from(F.base + F.hour), .notDetermined)
            let limitedFirst = try Self.changes(store, limited, appID: F.other)
            #expect(limitedFirst.added.map(\.uuid) == [F.uuid(2)])

            // Deleting the first correlation (its objects stay) and saving a third.
            #expect(try store.deleteSamples(uuids: [F.uuid(1)], appID: F.app, now: 6).map(\.uuid) == [F.uuid(1)])
            _ = try store.saveSamples([C.pressure(3, F.base + 4 * F.hour)], sourceAppID: F.app, now: 7)
            let second = try Self.changes(store, full, after: first.lastSequence)
            #expect(Self.summary(second) == "added [\"\(F.uuid(3))[\\\"\(F.uuid(31))\\\", \\\"\(F.uuid(32))\\\"]\"] deleted [\"\(F.app)/\(F.uuid(1))\"] more false")
            #expect(second.lastSequence == (try store.currentSequence()))
            // The limited reader could not see the first: its deletion is not reported to it, but the third is new.
            let limitedSecond = try Self.changes(store, limited, appID: F.other, after: limitedFirst.lastSequence)
            #expect(limitedSecond.deleted.isEmpty && limitedSecond.added.map(\.uuid) == [F.uuid(3)])
            // A reader of neither member type learns nothing, and its position does not move.
            let none = try Self.changes(store, C.bothScopes(.ownSamplesOnly, .notDetermined), appID: F.other, after: 1)
            #expect(none.added.isEmpty && none.deleted.isEmpty && none.lastSequence == 1)
            // The predicate applies to the correlation's dates, deletions included.
            let window = SamplePredicate(startMicros: F.base + 3 * F.hour, endMicros: F.base + 5 * F.hour)
            #expect(Self.summary(try Self.changes(store, full, after: first.lastSequence, predicate: window)).hasPrefix("added [\"\(F.uuid(3))"))
            #expect(try Self.changes(store, full, after: first.lastSequence, predicate: window).deleted.isEmpty)
        }
    }

    @Test func aCorrelationSavedAgainAfterItsDeletionIsAddedNotDeleted() throws {
        try F.withStore { store, _ throws in
            let full = C.bothScopes(.from(.min), .from(.min))
            _ = try store.saveSamples([C.pressure(1, F.base)], sourceAppID: F.app, now: 1)
            let first = try Self.changes(store, full)
            _ = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(11), F.uuid(12)], appID: F.app, now: 2)
            _ = try store.saveSamples([C.pressure(1, F.base)], sourceAppID: F.app, now: 3)
            let again = try Self.changes(store, full, after: first.lastSequence)
            #expect(again.added.map(\.uuid) == [F.uuid(1)] && again.deleted.isEmpty)
        }
    }

    @Test func pruningExpiresOnlyAnchorsOfReadersWhoCouldSeeThePrunedDeletion() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples([C.pressure(1, F.base), C.pressure(2, F.base + 10 * F.hour)], sourceAppID: F.app, now: 1)
            _ = try store.deleteSamples(uuids: [F.uuid(1)], appID: F.app, now: 2)
            #expect(try store.pruneTombstones(deletedBefore: 3) >= 1)
            let full = C.bothScopes(.from(.min), .notDetermined)
            #expect(try store.prunedVisibleCorrelationSequence(memberScopes: full, appID: F.other) > 0)
            #expect(try store.prunedVisibleCorrelationSequence(memberScopes: C.bothScopes(.ownSamplesOnly, .ownSamplesOnly), appID: F.app) > 0)
            // Denied, or limited to after the deleted reading: never expired by it.
            #expect(try store.prunedVisibleCorrelationSequence(memberScopes: C.bothScopes(.ownSamplesOnly, .ownSamplesOnly), appID: F.other) == 0)
            #expect(try store.prunedVisibleCorrelationSequence(memberScopes: C.bothScopes(.from(F.base + 5 * F.hour), .notDetermined), appID: F.other) == 0)
        }
    }

    @Test func aReadDeniedReadersCorrelationChangesCostTheSameAmongOthersAsAlone() throws {
        try F.withStore { crowded, _ throws in
            try F.withStore { alone, _ throws in
                // The reader first (same positions in both stores), then the same sentinel app, then others in one store only.
                for store in [crowded, alone] {
                    _ = try store.saveSamples((0..<20).map { C.pressure(100 + $0, F.base + Int64($0) * F.hour) }, sourceAppID: Self.reader, now: 1)
                    _ = try store.saveSamples([C.pressure(900, F.base + 400 * 24 * F.hour)], sourceAppID: "com.example.sentinel", now: 1)
                    // And a deleted one, so the reader's tombstone entries are followed by the same next entry too.
                    _ = try store.saveSamples([C.pressure(901, F.base + 401 * 24 * F.hour)], sourceAppID: "com.example.sentinel", now: 1)
                    _ = try store.deleteSamples(uuids: [F.uuid(901)], appID: "com.example.sentinel", now: 1)
                }
                let denied = C.bothScopes(.ownSamplesOnly, .ownSamplesOnly)
                let mixed = C.bothScopes(.ownSamplesOnly, .notDetermined)
                var anchors: [String: Int64] = [:]
                for (label, scopes) in [("denied", denied), ("denied systolic only", mixed)] {
                    let (crowdedWork, crowdedPage) = try ScopedWorkTests.work(crowded) { try Self.changes($0, scopes, appID: Self.reader) }
                    let (aloneWork, alonePage) = try ScopedWorkTests.work(alone) { try Self.changes($0, scopes, appID: Self.reader) }
                    #expect(Self.summary(crowdedPage) == Self.summary(alonePage) && crowdedPage.added.count == 20, "\(label)")
                    #expect(crowdedPage.lastSequence == alonePage.lastSequence, "\(label)")
                    #expect(crowdedWork == aloneWork, "\(label): \(crowdedWork) steps among others, \(aloneWork) alone")
                    anchors[label] = crowdedPage.lastSequence
                }
                // Others save and delete correlations in the crowded store only.
                for app in ["com.example.clinic", "com.example.watch"] {
                    _ = try crowded.saveSamples((0..<300).map { C.pressure(1_000 + $0, F.base - 10 * F.hour + Int64($0) * 5 * F.minute) }, sourceAppID: app, now: 2)
                }
                _ = try crowded.deleteSamples(uuids: (0..<40).map { F.uuid(1_000 + $0) }, appID: "com.example.clinic", now: 3)
                // The reader's position does not move, and reading from it costs the same.
                for (label, scopes) in [("denied", denied), ("denied systolic only", mixed)] {
                    let after = anchors[label] ?? 0
                    let (crowdedWork, crowdedPage) = try ScopedWorkTests.work(crowded) { try Self.changes($0, scopes, appID: Self.reader, after: after) }
                    let (aloneWork, alonePage) = try ScopedWorkTests.work(alone) { try Self.changes($0, scopes, appID: Self.reader, after: after) }
                    #expect(crowdedPage.lastSequence == after && alonePage.lastSequence == after, "\(label)")
                    #expect(Self.summary(crowdedPage) == Self.summary(alonePage) && crowdedPage.added.isEmpty, "\(label)")
                    #expect(crowdedWork == aloneWork, "\(label) after others acted: \(crowdedWork) steps among others, \(aloneWork) alone")
                }
                // The reader deletes two of its own: both stores report them, at the same cost.
                for store in [crowded, alone] {
                    _ = try store.deleteSamples(uuids: [F.uuid(103), F.uuid(107)], appID: Self.reader, now: 4)
                    _ = try store.pruneTombstones(deletedBefore: 4)
                }
                let after = anchors["denied"] ?? 0
                let (crowdedWork, crowdedPage) = try ScopedWorkTests.work(crowded) { try Self.changes($0, denied, appID: Self.reader, after: after, limit: 5) }
                let (aloneWork, alonePage) = try ScopedWorkTests.work(alone) { try Self.changes($0, denied, appID: Self.reader, after: after, limit: 5) }
                #expect(crowdedPage.deleted.map(\.uuid) == [F.uuid(103), F.uuid(107)])
                #expect(Self.summary(crowdedPage) == Self.summary(alonePage))
                #expect(crowdedWork == aloneWork, "deletions: \(crowdedWork) steps among others, \(aloneWork) alone")
                // Others' pruned deletions never expire the reader's anchor.
                #expect(try crowded.prunedVisibleCorrelationSequence(memberScopes: denied, appID: Self.reader) == 0)
            }
        }
    }

    @Test func version13CorrelationsGetPositionsAfterTheLastChangeInVersion14() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            #expect(try Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(13))).apply(to: database) == 13)
            #expect(try !database.hasTable("correlation_tombstone_members"))
            // Two correlations as version 13 stored them (no objects needed for positions), after 7 changes.
            try database.execute("""
                INSERT INTO app_codes (code, app_id) VALUES (41, '\(F.app)');
                INSERT INTO type_codes (code, identifier) VALUES (42, '\(ObjectType.bloodPressure.identifier)');
                INSERT INTO correlations (seq, app, uuid, type, start_us, end_us, metadata, created_us)
                VALUES (1, 41, '\(F.uuid(1))', 42, 10, 20, NULL, 5), (2, 41, '\(F.uuid(2))', 42, 30, 40, NULL, 6);
                UPDATE change_sequence SET last_seq = 7 WHERE id = 1;
                """)
            #expect(try Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(14))).apply(to: database) == 1)
            #expect(try SchemaUpgradeTests.texts(database, "SELECT change_seq FROM correlations ORDER BY seq") == [Array("8".utf8), Array("9".utf8)])
            #expect(try SchemaUpgradeTests.texts(database, "SELECT last_seq FROM change_sequence") == [Array("9".utf8)])
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration?.fromVersion == 14)
        // Version 15 deletes both (a correlation holds at least one object), at positions 10 and 11;
        // with no object, they were shown to no one and their deletions are told to no one.
        #expect(try store.currentSequence() == 11)
        // Saved after the upgrade, a correlation takes the next position (after its two objects').
        _ = try store.saveSamples([C.pressure(3, F.base)], sourceAppID: F.app, now: 8)
        let page = try Self.changes(store, C.bothScopes(.from(.min), .from(.min)), after: 9)
        #expect(page.added.map(\.uuid) == [F.uuid(3)] && page.deleted.isEmpty)
        #expect(page.lastSequence == (try store.currentSequence()) && page.lastSequence == 14)
    }
}
