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
        let (agents, prompts, _, text) = try await detailedStatus(daemon)
        return (agents, prompts, text)
    }

    /// As `status`, with the JSON's `prompts` array.
    static func detailedStatus(_ daemon: DaemonProcess) async throws -> (agents: Int, prompts: Int, list: [[String: Any]], text: String) {
        let json = try await SetGrantTests.healthctl(daemon, ["--json", "status"])
        #expect(json.status == 0, "\(json.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        let agents = try #require(object["consent_agents"] as? Int, "\(json.output)")
        let prompts = try #require(object["open_prompts"] as? Int, "\(json.output)")
        let list = try #require(object["prompts"] as? [[String: Any]], "\(json.output)")
        let text = try await SetGrantTests.healthctl(daemon, ["status"])
        #expect(text.status == 0, "\(text.errors)")
        return (agents, prompts, list, text.output)
    }

    /// Whether `text` has a `label  value` line (TableFormatter aligns with spaces).
    static func hasLine(_ text: String, _ label: String, _ value: Int) -> Bool {
        text.split(separator: "\n").contains { line in
            line.hasPrefix(label + " ") && line.split(separator: " ").last == Substring(String(value))
        }
    }

    /// Polls the status until `condition` holds (a request reaches the broker a little after the call
    /// starts), for up to 10 s of this task's scheduled time (`ScheduledDeadline`).
    static func waitForStatus(_ daemon: DaemonProcess, _ condition: (BrokerInfo) -> Bool) async throws -> BrokerInfo {
        let admin = try await daemon.admin()
        defer { admin.close() }
        var deadline = ScheduledDeadline(.seconds(10))
        while true {
            let info = try await admin.brokerInfo()
            if condition(info) || deadline.hasPassed() { return info }
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
        // A second app, with a deadline.
        let timed = try await daemon.connectApp("com.example.timed")
        defer { timed.close() }
        let timedRequest = Task { try await timed.requestAuthorization(toShare: [], read: [.sleepAnalysis], timeout: .seconds(300)) }
        let second = try await agent.prompt(1)
        let pending = try await Self.detailedStatus(daemon)
        #expect(pending.agents == 1 && pending.prompts == 2)
        #expect(Self.hasLine(pending.text, "open prompts", 2), "\(pending.text)")
        // Each open prompt is listed, oldest first: who asks, for what, until when.
        let listed = pending.text.split(separator: "\n").filter { $0.hasPrefix("  prompt ") }.map(String.init)
        #expect(listed.count == 2, "\(pending.text)")
        #expect(listed.first?.hasPrefix("  prompt \(prompt.id): com.example.pending (") == true, "\(pending.text)")
        #expect(listed.first?.contains("asks to share stepCount and read heartRate; waiting ") == true, "\(pending.text)")
        #expect(listed.first?.hasSuffix(", no time limit") == true, "\(pending.text)")
        #expect(listed.last?.hasPrefix("  prompt \(second.id): com.example.timed (") == true, "\(pending.text)")
        #expect(listed.last?.contains(", answer by ") == true && listed.last?.hasSuffix(" min left)") == true, "\(pending.text)")
        #expect(pending.list.map { $0["prompt_id"] as? Int } == [Int(prompt.id), Int(second.id)])
        #expect(pending.list.map { $0["app_id"] as? String } == ["com.example.pending", "com.example.timed"])
        #expect(pending.list.first?["deadline_us"] is NSNull)
        #expect((pending.list.last?["deadline_us"] as? NSNumber)?.int64Value == second.deadlineMicros)
        #expect(pending.list.last?["read_types"] as? [String] == ["HKCategoryTypeIdentifierSleepAnalysis"])

        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await request.value
        try await agent.answerAll(second, share: .allow, read: .deny)
        try await timedRequest.value
        let answered = try await Self.detailedStatus(daemon)
        #expect(answered.agents == 1 && answered.prompts == 0)
        #expect(answered.list.isEmpty && !answered.text.contains("  prompt "), "\(answered.text)")
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
