import BrokerModel
import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// What the broker tells about consent: agents and open prompts in `healthctl status`, and a warning
/// in its log when a prompt has nobody to answer it.
@Suite("Consent status")
struct ConsentStatusTests {
    /// The `consent_agents` and `open_prompts` of `healthctl --json status`, and the text status's lines for them.
    static func status(_ daemon: DaemonProcess) async throws -> (agents: Int, prompts: Int, text: String) {
        let json = try await SetGrantTests.healthctl(daemon, ["--json", "status"])
        #expect(json.status == 0, "\(json.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        let agents = try #require(object["consent_agents"] as? Int, "\(json.output)")
        let prompts = try #require(object["open_prompts"] as? Int, "\(json.output)")
        let text = try await SetGrantTests.healthctl(daemon, ["status"])
        #expect(text.status == 0, "\(text.errors)")
        return (agents, prompts, text.output)
    }

    /// Whether `text` has a `label  value` line (TableFormatter aligns with spaces).
    static func hasLine(_ text: String, _ label: String, _ value: Int) -> Bool {
        text.split(separator: "\n").contains { line in
            line.hasPrefix(label + " ") && line.split(separator: " ").last == Substring(String(value))
        }
    }

    /// Polls the status until `condition` holds (a request reaches the broker a little after the call starts).
    static func waitForStatus(_ daemon: DaemonProcess, _ condition: (BrokerInfo) -> Bool) async throws -> BrokerInfo {
        let admin = try await daemon.admin()
        defer { admin.close() }
        let deadline = Date().addingTimeInterval(10)
        while true {
            let info = try await admin.brokerInfo()
            if condition(info) || Date() > deadline { return info }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func statusCountsConsentAgentsAndOpenPrompts() async throws {
        let daemon = try await DaemonProcess()
        let idle = try await Self.status(daemon)
        #expect(idle.agents == 0 && idle.prompts == 0)
        #expect(Self.hasLine(idle.text, "consent agents", 0), "\(idle.text)")
        #expect(Self.hasLine(idle.text, "open prompts", 0), "\(idle.text)")

        let agent = try await ConsentAgentHarness(daemon: daemon)
        let watching = try await Self.status(daemon)
        #expect(watching.agents == 1 && watching.prompts == 0)
        #expect(Self.hasLine(watching.text, "consent agents", 1), "\(watching.text)")

        let store = try await daemon.connectApp("com.example.pending")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.stepCount], read: [.heartRate]) }
        let prompt = try await agent.prompt(0)
        let pending = try await Self.status(daemon)
        #expect(pending.agents == 1 && pending.prompts == 1)
        #expect(Self.hasLine(pending.text, "open prompts", 1), "\(pending.text)")

        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await request.value
        let answered = try await Self.status(daemon)
        #expect(answered.agents == 1 && answered.prompts == 0)
        // An agent was there to answer: nothing to warn about.
        #expect(!daemon.log().contains("no consent agent"), "\(daemon.log())")
    }

    @Test func aPromptNobodyCanAnswerIsWarnedAboutOnce() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.unheard")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.bodyMass], read: [.stepCount, .heartRate]) }
        let waiting = try await Self.waitForStatus(daemon) { $0.openPrompts == 1 }
        #expect(waiting.openPrompts == 1 && waiting.consentAgents == 0)

        let warnings = daemon.log().split(separator: "\n").filter { $0.contains("level=warning") && $0.contains("no consent agent") }
        #expect(warnings.count == 1, "\(daemon.log())")
        let line = String(warnings.first ?? "")
        #expect(line.contains("app_id=com.example.unheard"), "\(line)")
        #expect(line.contains("share_types=HKQuantityTypeIdentifierBodyMass"), "\(line)")
        #expect(line.contains("read_types=HKQuantityTypeIdentifierHeartRate,HKQuantityTypeIdentifierStepCount")
            || line.contains("read_types=HKQuantityTypeIdentifierStepCount,HKQuantityTypeIdentifierHeartRate"), "\(line)")

        // An agent connecting later still gets the prompt (and no second warning is written).
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let prompt = try await agent.prompt(0)
        try await agent.answerAll(prompt, share: .deny, read: .deny)
        try await request.value
        #expect(daemon.log().components(separatedBy: "no consent agent").count - 1 == 1, "\(daemon.log())")
    }

    @Test func aRequestThePolicyDecidesWholeIsNotWarnedAbout() async throws {
        let daemon = try await DaemonProcess(policy: #"{ "rules": [ { "app": "*", "share": "deny", "read": "deny" } ] }"#)
        let store = try await daemon.connectApp("com.example.ruled")
        defer { store.close() }
        try await store.requestAuthorization(toShare: [.bodyMass], read: [.stepCount])
        let info = try await Self.waitForStatus(daemon) { _ in true }
        #expect(info.openPrompts == 0)
        #expect(!daemon.log().contains("no consent agent"), "\(daemon.log())")
    }
}
