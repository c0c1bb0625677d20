import Foundation
import HealthBrokerClient

/// What a scenario app is granted for step count when it asks.
enum StepGrant: Sendable {
    /// Read everything (no share).
    case readFull
    /// Read only samples ending at or after this instant (µs), no share.
    case readLimited(fromMicros: Int64)
    /// Share (write), no read.
    case share
    /// Nothing asked: the app only connects (Hello, ping).
    case none
}

/// Gets scenario apps ready through the admin socket: registered (or re-keyed), their earlier
/// step-count decisions revoked, then authorized by asking, with this process answering the prompts
/// as a consent agent.
struct ScenarioApps {
    /// How long one RequestAuthorization may wait for the agent.
    static let authorizationTimeout: Duration = .seconds(60)

    /// The broker's app socket.
    let socketPath: String
    /// The admin session used for setup.
    let admin: BrokerAdmin

    /// Registers `appID`, or when it is registered already rotates its token and forgets its
    /// decisions, so every run starts from an app that has asked for nothing; returns its credentials.
    static func registerAfresh(_ appID: String, admin: BrokerAdmin, readUsage: String, shareUsage: String) async throws -> AppCredentials {
        if try await admin.listApps().contains(where: { $0.appID == appID }) {
            let credentials = try await admin.rotateToken(appID)
            _ = try await admin.revoke(appID: appID)
            return credentials
        }
        return try await admin.addApp(AppRegistration(
            appID: appID, name: "BrokerScenarios \(appID)", readUsage: readUsage, shareUsage: shareUsage))
    }

    /// Registers `appID` (or rotates its token), applies `grant`, and returns its token.
    func prepare(_ appID: String, grant: StepGrant) async throws -> String {
        let credentials = try await Self.registerAfresh(
            appID, admin: admin,
            readUsage: "Reads step samples to measure the broker.",
            shareUsage: "Writes step samples to measure the broker.")
        if case .none = grant { return credentials.token }

        let agent = Task { [admin] in
            for try await event in admin.watchPrompts() {
                guard case .raised(let prompt) = event, prompt.appID == appID else { continue }
                try await admin.answerPrompt(prompt.id, decisions: Self.decisions(for: prompt, grant: grant))
                return
            }
        }
        defer { agent.cancel() }
        let store = try await HealthStore.connect(socketPath: socketPath, appID: appID, appToken: credentials.token)
        defer { store.close() }
        switch grant {
        case .share:
            try await store.requestAuthorization(toShare: [.stepCount], read: [], timeout: Self.authorizationTimeout)
            let status = try await store.authorizationStatus(for: .stepCount)
            guard status == .sharingAuthorized else { throw ScenarioFailure("\(appID) may not share steps (\(status))") }
        case .readFull, .readLimited:
            try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: Self.authorizationTimeout)
        case .none:
            break
        }
        return credentials.token
    }

    /// The agent's answer to `prompt`.
    static func decisions(for prompt: Prompt, grant: StepGrant) -> [TypeDecision] {
        Set(prompt.shareTypes).union(prompt.readTypes).sorted().map { type in
            switch grant {
            case .share: TypeDecision(type: type, share: prompt.shareTypes.contains(type) ? .allow : nil)
            case .readFull: TypeDecision(type: type, read: prompt.readTypes.contains(type) ? .full : nil)
            case .readLimited(let from): TypeDecision(type: type, read: prompt.readTypes.contains(type) ? .limited(fromMicros: from) : nil)
            case .none: TypeDecision(type: type)
            }
        }
    }
}
