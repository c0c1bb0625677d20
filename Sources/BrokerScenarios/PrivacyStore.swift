import Foundation
import HealthBrokerClient

/// One of the two stores the privacy scenario compares, filled through its admin socket: X's own
/// samples in both; in A (`withOthers`) also the other apps' bulk, their long samples and deletions,
/// with X read-denied, while in B X may read everything.
struct PrivacyStore: Sendable {
    /// Samples per admin import call.
    static let importChunk = 10_000
    /// Uuids per delete call.
    static let deleteChunk = 500

    /// "A" or "B".
    let name: String
    /// The broker's app socket.
    let socketPath: String
    /// X's token.
    let token: String
    /// X's anchor for steps, taken before the other apps wrote and deleted more.
    let oldAnchor: [UInt8]

    /// Registers and authorizes the apps, imports, takes X's old anchor, then (A) writes and deletes more.
    static func fill(name: String, socketPath: String, adminSocketPath: String, layout: PrivacyLayout, withOthers: Bool,
                     log: @escaping @Sendable (String) -> Void) async throws -> PrivacyStore {
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let grants = PrivacyGrants(socketPath: socketPath, admin: admin)
        let began = ContinuousClock.now
        let token = try await grants.prepare(PrivacyLayout.appX, types: PrivacyLayout.types, read: withOthers ? .deny : .full)
        try await importAll(layout.ownSteps + layout.ownSleep, as: PrivacyLayout.appX, admin: admin)
        var watchToken = ""
        if withOthers {
            watchToken = try await grants.prepare(PrivacyLayout.watch, types: [.stepCount, .sleepAnalysis], read: nil)
            _ = try await grants.prepare(PrivacyLayout.ring, types: [.heartRate], read: nil)
            let long = layout.longSamples
            try await importAll(layout.otherBulk(.stepCount) + layout.otherBulk(.sleepAnalysis) + [long.sleep], as: PrivacyLayout.watch, admin: admin)
            try await importAll(layout.otherBulk(.heartRate) + [long.heartRate], as: PrivacyLayout.ring, admin: admin)
            try await delete(layout.earlyDeletions, as: PrivacyLayout.watch, token: watchToken, socketPath: socketPath)
        }
        let connection = try PrivacyConnection(socketPath: socketPath, appID: PrivacyLayout.appX, token: token)
        let first = try connection.exchange(PrivacyCall.anchoredFirst.request(layout, oldAnchor: [])!)
        connection.close()
        guard !first.anchor.isEmpty else { throw ScenarioFailure("store \(name): X's first anchored query gave no anchor (\(first.status))") }
        if withOthers {
            try await importAll(layout.laterSteps, as: PrivacyLayout.watch, admin: admin)
            try await delete(layout.laterDeletions, as: PrivacyLayout.watch, token: watchToken, socketPath: socketPath)
        }
        log("privacy: store \(name) filled in \(String(format: "%.1f", (ContinuousClock.now - began).seconds)) s"
            + (withOthers ? " (X read-denied; \(layout.otherSamples) other-app samples, then \(layout.laterSteps.count) more and"
                + " \(layout.earlyDeletions.count)+\(layout.laterDeletions.count) deleted)" : " (X may read everything; only X's samples)"))
        return PrivacyStore(name: name, socketPath: socketPath, token: token, oldAnchor: first.anchor)
    }

    /// Imports `samples` as `appID` in chunks; every one must be new (the stores are expected fresh).
    private static func importAll(_ samples: [Sample], as appID: String, admin: BrokerAdmin) async throws {
        var offset = 0
        while offset < samples.count {
            let chunk = Array(samples[offset..<min(offset + importChunk, samples.count)])
            let result = try await admin.importSamples(chunk, as: appID)
            guard result.unchanged == 0 else {
                throw ScenarioFailure("import as \(appID): \(result.unchanged) samples were already stored; give the scenario fresh daemons")
            }
            offset += chunk.count
        }
    }

    /// Deletes `uuids` as the app `appID`, which saved them.
    private static func delete(_ uuids: [String], as appID: String, token: String, socketPath: String) async throws {
        let store = try await HealthStore.connect(socketPath: socketPath, appID: appID, appToken: token)
        defer { store.close() }
        var offset = 0
        while offset < uuids.count {
            let chunk = Array(uuids[offset..<min(offset + deleteChunk, uuids.count)])
            let deleted = try await store.delete(chunk)
            guard deleted == chunk.count else { throw ScenarioFailure("\(appID) deleted \(deleted) of \(chunk.count) of its samples") }
            offset += chunk.count
        }
    }
}
