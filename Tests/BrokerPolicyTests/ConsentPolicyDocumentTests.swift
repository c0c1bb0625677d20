@testable import BrokerModel
@testable import BrokerPolicy
import Foundation
import Testing

/// docs/CONSENT-POLICY.md is the format's documentation: its examples must parse and decide as it says.
@Suite("docs/CONSENT-POLICY.md")
struct ConsentPolicyDocumentTests {
    let now = jan2026 + 100 * day

    /// The document's text.
    static func document() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("docs/CONSENT-POLICY.md").path
        let data = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
        return String(decoding: data, as: UTF8.self)
    }

    /// Every ```json block, in order.
    static func jsonBlocks() throws -> [String] {
        let parts = try document().components(separatedBy: "```json\n")
        return parts.dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func everyJSONExampleParses() throws {
        let blocks = try Self.jsonBlocks()
        #expect(blocks.count >= 2)
        for block in blocks {
            #expect(throws: Never.self, "\(block)") { _ = try ConsentPolicy(jsonData: bytes(block)) }
        }
    }

    @Test func theWorkedExampleDecidesAsTheTableSays() throws {
        let blocks = try Self.jsonBlocks()
        let worked = try #require(blocks.first { $0.contains("com.example.coach") })
        let policy = try ConsentPolicy(jsonData: bytes(worked))
        #expect(policy.decide(appID: "com.example.coach", share: [.workout, .bodyMass], read: [.workout, .stepCount], now: now) == [
            TypeDecision(type: .bodyMass, share: .deny),
            TypeDecision(type: .stepCount, read: .limited(fromMicros: now - 7 * day)),
            TypeDecision(type: .workout, share: .allow, read: .full),
        ].sorted { $0.type < $1.type })
        #expect(policy.decide(appID: "com.example.other", share: [], read: [.dateOfBirth, .stepCount], now: now)
            == [TypeDecision(type: .dateOfBirth, read: .deny)])
    }

    @Test func theDocumentedErrorIsTheOneRaised() throws {
        let json = #"{"rules": [{"app": "*", "share": "deny"}, {"app": "com.example.steps", "types": ["stepz"], "read": "full"}]}"#
        let error = try #require(thrownError { _ = try ConsentPolicy(jsonData: bytes(json)) })
        let documented = try Self.document()
        // The document shows the daemon's line, which prefixes the file; the rest is the parser's message.
        let message = error.message.replacingOccurrences(of: "consent policy: ", with: "")
        #expect(documented.contains(message), "\(message)")
    }
}
