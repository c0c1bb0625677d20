import BrokerModel
import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// The real `healthctl consent` as a person uses it: answers typed late and in pieces, prompts
/// resolved elsewhere, a daemon that restarts.
@Suite("healthctl consent, the terminal agent")
struct ConsentAgentTerminalTests {
    typealias Agent = ConsentAgentProcessTests.Agent

    /// A daemon and an agent watching its prompts.
    static func started(_ arguments: [String] = []) async throws -> (DaemonProcess, Agent) {
        let daemon = try await DaemonProcess(extraArguments: arguments)
        let agent = try Agent(daemon: daemon)
        #expect(try await agent.waitFor("waiting for prompts"), "the agent did not start: \(agent.output)")
        try await Task.sleep(for: .milliseconds(300))   // the agent's prompt watch reaches the broker
        return (daemon, agent)
    }

    /// Polls `condition` for up to five seconds.
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func allowAllTypedInPiecesAnswersEveryQuestionOfAThreeTypePrompt() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        let store = try await daemon.connectApp("com.example.three")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount, .heartRate, .sleepAnalysis], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share Steps (stepCount)?"), "\(agent.output)")
        #expect(agent.output.contains("ago; the app is waiting"), "the prompt's age is shown: \(agent.output)")
        agent.typePiece("allo")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!agent.output.contains("answered prompt"), "half a line is not an answer: \(agent.output)")
        agent.typePiece("w a")
        try await Task.sleep(for: .milliseconds(200))
        agent.typePiece("ll\n")
        #expect(try await agent.waitFor("answered prompt"), "\(agent.output)")
        let answered = agent.output
        #expect(answered.contains("stepCount allowed"), "\(answered)")
        #expect(answered.contains("heartRate full"), "\(answered)")
        #expect(answered.contains("sleepAnalysis full"), "\(answered)")
        #expect(!answered.contains("read Heart rate"), "no question was asked after 'allow all': \(answered)")
        try await request.value
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
    }

    @Test func aPromptAnsweredElsewhereMidQuestionLeavesTheScreenAndTheAgentGoesOn() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        let other = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.first")
        defer { store.close() }
        let first = Task { try await store.requestAuthorization(toShare: [.bodyMass], read: [.heartRate], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share Body weight (bodyMass)?"), "\(agent.output)")
        agent.type("allow")   // mid-way: the read question is showing
        #expect(try await agent.waitFor("read Heart rate (heartRate)?"), "\(agent.output)")
        let prompt = try await other.prompt()
        try await other.answerAll(prompt, share: .deny, read: .deny)
        try await first.value
        // Nothing is typed: the agent must drop the prompt and go back to waiting by itself.
        #expect(try await agent.waitFor("this request was answered elsewhere or withdrawn"), "\(agent.output)")
        #expect(try await agent.waitFor("waiting for prompts", count: 2), "\(agent.output)")
        // The next prompt is asked, and answered, as usual.
        let second = try await daemon.connectApp("com.example.second")
        defer { second.close() }
        let next = Task { try await second.requestAuthorization(toShare: [.stepCount], read: [], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share Steps (stepCount)?"), "\(agent.output)")
        agent.type("allow")
        try await next.value
        #expect(try await second.authorizationStatus(for: .stepCount) == .sharingAuthorized, "\(agent.output)")
        #expect(try await store.authorizationStatus(for: .bodyMass) == .sharingDenied, "the other agent's answer stands")
    }

    @Test func theAgentReconnectsWhenTheDaemonRestartsAndShowsTheNextPrompt() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        _ = try await daemon.stop()
        #expect(try await agent.waitFor("broker gone; reconnecting…"), "\(agent.output)")
        try await Task.sleep(for: .seconds(1))   // a few failed attempts while the daemon is down
        try await daemon.start()
        #expect(try await agent.waitFor("reconnected", timeout: 15), "\(agent.output)")
        #expect(agent.count("broker gone") == 1, "said once, not per attempt: \(agent.output)")
        try await Task.sleep(for: .milliseconds(300))
        let store = try await daemon.connectApp("com.example.later")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [.stepCount], read: [], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("share Steps (stepCount)?"), "\(agent.output)")
        agent.type("allow")
        try await request.value
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized, "\(agent.output)")
    }

    @Test func limitedIsRefusedForACharacteristic() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        let store = try await daemon.connectApp("com.example.birthday")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.dateOfBirth], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("read Date of birth (dateOfBirth)? allow / deny"), "\(agent.output)")
        agent.type("limited 2020-01-01")
        #expect(try await agent.waitFor("is a characteristic"), "\(agent.output)")
        #expect(agent.count("read Date of birth") == 2, "the question is asked again: \(agent.output)")
        agent.type("deny")
        #expect(try await agent.waitFor("answered prompt"), "\(agent.output)")
        #expect(agent.output.contains("dateOfBirth denied"), "\(agent.output)")
        try await request.value
    }

    @Test func aQuestionMarkExplainsTheChoices() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        let store = try await daemon.connectApp("com.example.curious")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("read Steps (stepCount)?"), "\(agent.output)")
        agent.type("?")
        #expect(try await agent.waitFor("cannot tell that older data exists"), "\(agent.output)")
        #expect(agent.count("read Steps (stepCount)?") == 2, "the question is asked again: \(agent.output)")
        agent.type("cancel")
        #expect(try await agent.waitFor("cancelled prompt"), "\(agent.output)")
        _ = try? await request.value
    }

    @Test func aTypedDateMeansMidnightInThePersonsTimeZone() async throws {
        let daemon = try await DaemonProcess()
        let agent = try Agent(daemon: daemon, timeZone: "Asia/Tokyo")   // UTC+9 all year, no summer time
        defer { agent.stop() }
        #expect(try await agent.waitFor("waiting for prompts"), "\(agent.output)")
        try await Task.sleep(for: .milliseconds(300))
        let store = try await daemon.connectApp("com.example.tokyo")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(30)) }
        #expect(try await agent.waitFor("read Steps (stepCount)?"), "\(agent.output)")
        agent.type("limited 2026-01-01")
        #expect(try await agent.waitFor("answered prompt"), "\(agent.output)")
        #expect(agent.output.contains("stepCount limited from 2026-01-01"), "the date as typed, not in UTC: \(agent.output)")
        try await request.value
        let admin = try await daemon.admin()
        defer { admin.close() }
        let grant = try await admin.grants(for: "com.example.tokyo").first { $0.type == .stepCount }
        // 2026-01-01 00:00 in Tokyo is 2025-12-31 15:00 UTC.
        #expect(grant?.read == .limited(fromMicros: 1_767_193_200 * 1_000_000), "\(String(describing: grant))")
    }
}
