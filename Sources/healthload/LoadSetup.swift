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
        let existing = Set(try await admin.listApps().map(\.appID))
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
        if options.mix.contains(.query) {
            try await seed(credentials, admin: admin)
        }
        return credentials
    }

    /// Asks for the load types on behalf of every app, answering the prompts itself.
    private func authorize(_ credentials: [(appID: String, token: String)], admin: BrokerAdmin) async throws {
        let readFrom = Int64(Date().timeIntervalSince1970 * 1_000_000) - Self.readWindowMicros
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
        log("setup: authorization done (\(responder.count) prompt(s) answered by healthload)")
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
