@testable import BrokerModel
@testable import BrokerPolicy
import BrokerSupport
import Testing

/// Runs `body` and returns the BrokerError it threw, or nil if it returned (any other error is an issue).
func thrownError(_ body: () throws -> Void) -> BrokerError? {
    do {
        try body()
        return nil
    } catch let error as BrokerError {
        return error
    } catch {
        Issue.record("expected a BrokerError, got \(error)")
        return nil
    }
}

/// An app registered with both usage texts.
func appWithBothUsages(_ id: String = "com.example.app") -> AppInfo {
    AppInfo(appID: id, name: "Example", readUsage: "to chart your steps", shareUsage: "to save workouts")
}

/// A prompt for the given types.
func prompt(share: [ObjectType] = [], read: [ObjectType] = [], id: UInt64 = 7) -> Prompt {
    Prompt(id: id, appID: "com.example.app", appName: "Example", readUsage: "r", shareUsage: "s",
           shareTypes: share, readTypes: read, createdMicros: 1)
}

/// Grants built from (type, share, read) triples, decided at 100 by "agent".
func grants(_ entries: (ObjectType, ShareDecision?, ReadDecision?)...) -> AppGrants {
    AppGrants(entries.map { Grant(type: $0.0, share: $0.1, read: $0.2, decidedMicros: 100, decidedBy: "agent") })
}

/// 1 day in µs.
let day: Int64 = 86_400_000_000

/// 2026-01-01T00:00:00Z in µs.
let jan2026: Int64 = 1_767_225_600_000_000

/// 2020-01-01T00:00:00Z in µs.
let jan2020: Int64 = 1_577_836_800_000_000

/// Bytes of a UTF-8 string.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

extension AuthorizationPolicy {
    /// `completeAnswer` at the current wall-clock time, as the broker calls it.
    static func completeAnswer(_ decisions: [TypeDecision], for prompt: Prompt) throws(BrokerError) -> [TypeDecision] {
        try completeAnswer(decisions, for: prompt, now: Microseconds.now())
    }
}

extension ConsentPolicy {
    /// Parses a policy file at the current wall-clock time, as the broker does.
    init(jsonData: [UInt8]) throws(BrokerError) {
        try self.init(jsonData: jsonData, now: Microseconds.now())
    }
}
