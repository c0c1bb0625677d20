import Foundation
import HealthBrokerClient

/// Gets the broker ready through the admin socket: the load apps registered (or their tokens
/// rotated), authorized (answering their prompts as a consent agent) and seeded for queries.
struct LoadSetup {
    /// How long one app's RequestAuthorization may take.
    static let authorizationTimeout: Duration = .seconds(60)
    /// Samples per import call while seeding.
    static let seedChunk = 5_000
    /// How far back the limited read grant reaches.
    static let readWindowMicros: Int64 = 30 * 86_400_000_000

    /// The run's options.
    let options: LoadOptions
    /// The requests and seed data.
    let workload: LoadWorkload
    /// Where setup notes go.
    let log: @Sendable (String) -> Void

    /// Registers or re-keys every load app and returns app id → token, in `options.appIDs` order.
    func prepare(admin: BrokerAdmin) async throws -> [(appID: String, token: String)] {
        let apps = try await admin.listApps().map(\.appID)
        try refuseLiveStore(apps: apps, sources: try await admin.sources().map(\.appID))
        let existing = Set(apps)
        var credentials: [(appID: String, token: String)] = []
        for (offset, appID) in options.appIDs.enumerated() {
            let issued: AppCredentials
            if existing.contains(appID) {
                issued = try await admin.rotateToken(appID)
            } else {
                issued = try await admin.addApp(AppRegistration(
                    appID: appID, name: "healthload \(offset + 1)",
                    readUsage: "Reads samples to measure the broker under load.",
                    shareUsage: "Writes samples to measure the broker under load."))
            }
            credentials.append((appID, issued.token))
        }
        let reused = options.appIDs.filter(existing.contains).count
        log("setup: \(credentials.count) app(s) ready (\(reused) reused with a new token)")

        if options.needsAuthorization {
            try await authorize(credentials, admin: admin)
        }
        if options.mix.contains(.query) || options.mix.contains(.anchored) {
            try await seed(credentials, admin: admin)
        }
        return credentials
    }

    /// Refuses a broker that holds apps other than healthload's own (registered, or that ever asked),
    /// unless `--allow-writes-to-live-store`: setup registers apps, sets grants and writes samples.
    func refuseLiveStore(apps: [String], sources: [String]) throws(LoadFailure) {
        guard !options.allowWritesToLiveStore else { return }
        let own = Set(options.appIDs)
        let others = Set(apps + sources).filter { !own.contains($0) && !$0.hasPrefix(options.appPrefix + ".") }.sorted()
        guard !others.isEmpty else { return }
        let named = others.prefix(5).joined(separator: ", ") + (others.count > 5 ? ", …" : "")
        throw LoadFailure(
            "this broker holds other apps' data (\(others.count): \(named)); healthload registers apps, sets their grants "
                + "and writes samples, so run it against a broker of its own, or pass --allow-writes-to-live-store")
    }

    /// Sets the load apps' grants directly (AdminSetGrant), then lets each app ask: every type is
    /// decided before it asks, so no prompt is raised for a person's consent agent to show. The
    /// responder stays as a fallback for a broker that takes no AdminSetGrant (it answers only the
    /// load apps' prompts).
    private func authorize(_ credentials: [(appID: String, token: String)], admin: BrokerAdmin) async throws {
        let readFrom = Int64(Date().timeIntervalSince1970 * 1_000_000) - Self.readWindowMicros
        setting: for (appID, _) in credentials {
            for type in LoadWorkload.shareTypes.union(LoadWorkload.readTypes) {
                do throws(BrokerError) {
                    _ = try await admin.setGrant(
                        appID: appID, type: type,
                        share: LoadWorkload.shareTypes.contains(type) ? .allow : nil,
                        read: LoadWorkload.readTypes.contains(type) ? .limited(fromMicros: readFrom) : nil)
                } catch {
                    guard error.code == .unimplemented else { throw error }
                    // An older broker (before AdminSetGrant, such as a baseline of an A/B run): the
                    // responder answers the load apps' prompts instead.
                    log("setup: this broker takes no AdminSetGrant; healthload answers its apps' prompts")
                    break setting
                }
            }
        }
        let responder = ConsentResponder(admin: admin, appIDs: Set(credentials.map(\.appID)), readFromMicros: readFrom)
        responder.start()
        defer { responder.stop() }
        for (appID, token) in credentials {
            let store = try await HealthStore.connect(socketPath: options.socketPath, appID: appID, appToken: token)
            defer { store.close() }
            try await store.requestAuthorization(toShare: LoadWorkload.shareTypes, read: LoadWorkload.readTypes, timeout: Self.authorizationTimeout)
            let status = try await store.authorizationStatus(for: LoadWorkload.statusType)
            if status != .sharingAuthorized {
                log("setup: warning: \(appID) may not share \(LoadWorkload.statusType) (an earlier decision stands: \(status)); saves will fail")
            }
        }
        log("setup: authorization done (grants set directly; \(responder.count) prompt(s) answered by healthload)")
    }

    /// Removes the load apps and everything they saved, unless `--keep`.
    func cleanUp(_ appIDs: [String], admin: BrokerAdmin) async {
        guard !options.keep else {
            log("cleanup: kept \(appIDs.count) load app(s) and their samples (--keep)")
            return
        }
        var removed = 0
        for appID in appIDs {
            do {
                _ = try await admin.removeApp(appID, deleteData: true)
                removed += 1
            } catch {
                log("cleanup: warning: could not remove \(appID): \(error)")
            }
        }
        log("cleanup: removed \(removed) load app(s) and their samples (--keep leaves them)")
    }

    /// Imports the query samples for every app (idempotent: the same uuids and content all day).
    private func seed(_ credentials: [(appID: String, token: String)], admin: BrokerAdmin) async throws {
        var saved = 0
        var unchanged = 0
        for (offset, credential) in credentials.enumerated() {
            let samples = workload.seedSamples(app: offset + 1)
            var start = 0
            while start < samples.count {
                let end = min(start + Self.seedChunk, samples.count)
                let result = try await admin.importSamples(Array(samples[start..<end]), as: credential.appID)
                saved += Int(result.saved)
                unchanged += Int(result.unchanged)
                start = end
            }
        }
        log("setup: seeded \(options.querySamples) sample(s) per app for queries (\(saved) new, \(unchanged) already there)")
    }
}
