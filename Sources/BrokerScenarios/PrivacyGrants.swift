import Foundation
import HealthBrokerClient

/// Registers a privacy-scenario app and has it ask for share and read access to several types,
/// with this process answering the prompt as the consent agent (as `ScenarioApps` does for steps).
/// A consent policy file that decides the same types first is fine too: then no prompt is raised.
struct PrivacyGrants {
    /// The broker's app socket.
    let socketPath: String
    /// The admin session used for setup.
    let admin: BrokerAdmin

    /// Registers `appID` (or rotates its token and forgets its decisions), asks to share and read
    /// `types`, answers share allow and read `read`, checks the recorded grants, and returns the token.
    func prepare(_ appID: String, types: Set<ObjectType>, read: ReadDecision?) async throws -> String {
        let credentials = try await ScenarioApps.registerAfresh(
            appID, admin: admin,
            readUsage: "Reads health samples to measure what the broker reveals.",
            shareUsage: "Writes health samples to measure what the broker reveals.")
        let agent = Task { [admin] in
            for try await event in admin.watchPrompts() {
                guard case .raised(let prompt) = event, prompt.appID == appID else { continue }
                let decisions = Set(prompt.shareTypes).union(prompt.readTypes).sorted().map { type in
                    TypeDecision(type: type, share: prompt.shareTypes.contains(type) ? .allow : nil,
                                 read: prompt.readTypes.contains(type) ? read : nil)
                }
                try await admin.answerPrompt(prompt.id, decisions: decisions)
                return
            }
        }
        defer { agent.cancel() }
        let store = try await HealthStore.connect(socketPath: socketPath, appID: appID, appToken: credentials.token)
        defer { store.close() }
        try await store.requestAuthorization(toShare: types, read: read == nil ? [] : types, timeout: ScenarioApps.authorizationTimeout)
        // The grants are what the comparison rests on: check them rather than trust the answer.
        let grants = try await admin.grants(for: appID)
        for type in types {
            guard let grant = grants.first(where: { $0.type == type }), grant.share == .allow, grant.read == read else {
                throw ScenarioFailure("\(appID): \(type.identifier) is not share-allowed with read \(read.map { "\($0)" } ?? "unasked") (a consent policy decided otherwise?)")
            }
        }
        return credentials.token
    }
}
