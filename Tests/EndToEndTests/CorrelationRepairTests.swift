import BrokerModel
import BrokerStore
import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Schema version 15 over the socket: a blood pressure correlation that lost its diastolic under a
/// build before the rule "deleting an object deletes its correlation" is deleted when the broker
/// opens the store, and the readers who had synced it and may see it now are told; a read-denied
/// app sees exactly what it sees in a store holding only its own reading.
@Suite("Correlation repair")
struct CorrelationRepairTests {
    typealias C = CorrelationTests

    /// The denied app's own reading, with fixed uuids so that two stores' answers compare.
    static let deniedReading = C.pressure(
        base + 5 * hour, 112, 71, uuid: "6f1c2d3e-0000-4000-8000-000000000001",
        systolicUUID: "6f1c2d3e-0000-4000-8000-000000000002", diastolicUUID: "6f1c2d3e-0000-4000-8000-000000000003")

    /// Stops `daemon` and leaves its store as a build before the rule did: each object in
    /// `objectUUIDs` deleted alone (the trigger drops its link, the correlation stays), at schema
    /// version 14 (no `object_count`).
    static func revertToVersion14(_ daemon: DaemonProcess, deletingAlone objectUUIDs: [String]) async throws {
        #expect(try await daemon.stop() == 0)
        let database = try Database(path: daemon.dataDirectory + "/" + DataDirectory.databaseFileName)
        defer { database.close() }
        for uuid in objectUUIDs {
            try database.execute("DELETE FROM samples WHERE uuid = X'\(uuid.replacingOccurrences(of: "-", with: ""))'")
        }
        try database.execute("ALTER TABLE correlations DROP COLUMN object_count")
        try database.setUserVersion(14)
    }

    static func connect(_ daemon: DaemonProcess, _ credentials: AppCredentials) async throws -> HealthStore {
        try await HealthStore.connect(socketPath: daemon.appSocket, appID: credentials.app.appID, appToken: credentials.token)
    }

    /// The denied app saves its reading and syncs blood pressure; its anchor.
    static func deniedSyncs(_ daemon: DaemonProcess, _ credentials: AppCredentials) async throws -> QueryAnchor {
        let denied = try await connect(daemon, credentials)
        defer { denied.close() }
        try await denied.requestAuthorization(toShare: C.pressureTypes, read: C.pressureTypes, timeout: .seconds(10))
        _ = try await denied.save([deniedReading])
        let synced = try await denied.anchoredChanges(of: .bloodPressure)
        #expect(synced.added.map(\.uuid) == [deniedReading.uuid])
        return synced.newAnchor
    }

    /// What the denied app sees after the repair, as text: its changes from `anchor` (and whether
    /// the anchor stayed), a fresh sync, and queries of blood pressure and its member types.
    static func deniedView(_ daemon: DaemonProcess, _ credentials: AppCredentials, anchor: QueryAnchor) async throws -> [String] {
        let denied = try await connect(daemon, credentials)
        defer { denied.close() }
        let changes = try await denied.anchoredChanges(of: .bloodPressure, anchor: anchor)
        let fresh = try await denied.anchoredChanges(of: .bloodPressure)
        return [
            "changes \(changes.added.map(\.uuid)) \(changes.deleted.map(\.uuid)) stayed \(changes.newAnchor == anchor)",
            "fresh \(fresh.added.map { [$0.uuid] + $0.objects.map(\.uuid) }) \(fresh.deleted.map(\.uuid))",
            "query \(try await collect(denied.samples(of: .bloodPressure)).map { [$0.uuid] + $0.objects.map(\.uuid) })",
            "systolic \(try await collect(denied.samples(of: .bloodPressureSystolic)).map(\.uuid))",
            "diastolic \(try await collect(denied.samples(of: .bloodPressureDiastolic)).map(\.uuid))",
        ]
    }

    @Test func aCorrelationThatLostAnObjectIsDeletedAtOpenAndTheReadersWhoMaySeeItAreTold() async throws {
        let daemon = try await DaemonProcess(policy: C.policy)
        var registered: [String: AppCredentials] = [:]
        for appID in [C.writerID, C.systolicOnlyID, C.limitedID, C.deniedID] { registered[appID] = try await daemon.registerApp(appID) }
        let credentials = registered
        func open(_ appID: String) async throws -> HealthStore { try await Self.connect(daemon, try #require(credentials[appID])) }

        // Before: a reading on 1 June that will lose its diastolic, an intact one on 2 June.
        let broken = C.pressure(base + 2 * hour, 131, 86)
        let intact = C.pressure(base + 30 * hour, 120, 78)
        // The denied app saved its own reading first.
        let deniedAnchor = try await Self.deniedSyncs(daemon, try #require(credentials[C.deniedID]))
        let synced: (writer: QueryAnchor, systolic: QueryAnchor, limited: QueryAnchor)
        do {
            let writer = try await open(C.writerID)
            defer { writer.close() }
            try await writer.requestAuthorization(toShare: C.pressureTypes, read: C.pressureTypes, timeout: .seconds(10))
            let systolicOnly = try await open(C.systolicOnlyID)
            defer { systolicOnly.close() }
            try await systolicOnly.requestAuthorization(toShare: [], read: C.pressureTypes, timeout: .seconds(10))
            let limited = try await open(C.limitedID)
            defer { limited.close() }
            try await limited.requestAuthorization(toShare: [], read: [.bloodPressureSystolic], timeout: .seconds(10))
            _ = try await writer.save([broken, intact])
            let all = try await writer.anchoredChanges(of: .bloodPressure)
            #expect(all.added.map(\.uuid) == [Self.deniedReading.uuid, broken.uuid, intact.uuid])
            let partial = try await systolicOnly.anchoredChanges(of: .bloodPressure)
            #expect(partial.added.map(\.uuid) == [Self.deniedReading.uuid, broken.uuid, intact.uuid])
            // Systolic from 2 June: the intact reading only.
            let recent = try await limited.anchoredChanges(of: .bloodPressure)
            #expect(recent.added.map(\.uuid) == [intact.uuid])
            synced = (all.newAnchor, partial.newAnchor, recent.newAnchor)
        }

        // A build before the rule deleted the broken reading's diastolic alone; this build opens the store.
        try await Self.revertToVersion14(daemon, deletingAlone: [broken.objects[1].uuid])
        try await daemon.start()
        let migrated = daemon.log().split(separator: "\n").filter { $0.contains("msg=\"schema migrated\"") }
        #expect(migrated.count == 1 && migrated.first?.contains("from=14") == true, "\(migrated)")

        let writer = try await open(C.writerID)
        // The readers who had synced it and see it now (through its systolic) are told, once.
        let writerAfter = try await writer.anchoredChanges(of: .bloodPressure, anchor: synced.writer)
        #expect(writerAfter.added.isEmpty && writerAfter.deleted == [DeletedObject(uuid: broken.uuid, sourceAppID: C.writerID)])
        let systolicOnly = try await open(C.systolicOnlyID)
        defer { systolicOnly.close() }
        let systolicAfter = try await systolicOnly.anchoredChanges(of: .bloodPressure, anchor: synced.systolic)
        #expect(systolicAfter.added.isEmpty && systolicAfter.deleted == [DeletedObject(uuid: broken.uuid, sourceAppID: C.writerID)])
        #expect(try await systolicOnly.anchoredChanges(of: .bloodPressure, anchor: systolicAfter.newAnchor).deleted.isEmpty)
        // The limited reader never saw it: nothing, and its anchor stays.
        let limited = try await open(C.limitedID)
        defer { limited.close() }
        let limitedAfter = try await limited.anchoredChanges(of: .bloodPressure, anchor: synced.limited)
        #expect(limitedAfter.added.isEmpty && limitedAfter.deleted.isEmpty && limitedAfter.newAnchor == synced.limited)
        // A query no longer returns it; the intact reading keeps both objects; the systolic stays a sample.
        let readings = try await collect(writer.samples(of: .bloodPressure))
        #expect(readings.map(\.uuid).sorted() == [Self.deniedReading.uuid, intact.uuid].sorted())
        #expect(readings.first { $0.uuid == intact.uuid }?.objects.map(\.uuid) == intact.objects.map(\.uuid))
        let systolics = try await collect(writer.samples(of: .bloodPressureSystolic)).map(\.uuid)
        #expect(systolics.contains(broken.objects[0].uuid) && systolics.contains(intact.objects[0].uuid))
        let diastolics = try await collect(writer.samples(of: .bloodPressureDiastolic)).map(\.uuid)
        #expect(!diastolics.contains(broken.objects[1].uuid) && diastolics.contains(intact.objects[1].uuid))

        // The read-denied app cannot tell this store from one holding only its own reading.
        let crowdedView = try await Self.deniedView(daemon, try #require(credentials[C.deniedID]), anchor: deniedAnchor)
        let alone = try await DaemonProcess(policy: C.policy)
        let aloneCredentials = try await alone.registerApp(C.deniedID)
        let aloneAnchor = try await Self.deniedSyncs(alone, aloneCredentials)
        try await Self.revertToVersion14(alone, deletingAlone: [])
        try await alone.start()
        let aloneView = try await Self.deniedView(alone, aloneCredentials, anchor: aloneAnchor)
        #expect(crowdedView == aloneView)
        #expect(crowdedView.first?.hasSuffix("stayed true") == true, "\(crowdedView)")

        // Opened again: the migration does not run again and nothing more is reported.
        writer.close()
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        #expect(daemon.log().split(separator: "\n").filter { $0.contains("msg=\"schema migrated\"") }.count == 1)
        let again = try await open(C.writerID)
        defer { again.close() }
        let quiet = try await again.anchoredChanges(of: .bloodPressure, anchor: writerAfter.newAnchor)
        #expect(quiet.added.isEmpty && quiet.deleted.isEmpty && quiet.newAnchor == writerAfter.newAnchor)
    }
}
