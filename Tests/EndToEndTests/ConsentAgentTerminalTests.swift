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

    /// Polls `condition` for up to five seconds of this task's scheduled time (`ScheduledDeadline`).
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        try await pollUntil(within: .seconds(5), every: .milliseconds(20), condition)
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

    /// `HH:mm` of `date` in Tokyo, as the agent (TZ=Asia/Tokyo) writes it.
    static func tokyoClock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Tokyo")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    @Test func onATerminalThePromptSaysUntilWhenTheAppWaitsInLocalTime() async throws {
        let daemon = try await DaemonProcess()
        let agent = try Agent(daemon: daemon, timeZone: "Asia/Tokyo", terminal: true)
        defer { agent.stop() }
        #expect(try await agent.waitFor("waiting for prompts"), "\(agent.output)")
        try await Task.sleep(for: .milliseconds(300))
        let store = try await daemon.connectApp("com.example.timed")
        defer { store.close() }
        let before = Date()
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(300)) }
        #expect(try await agent.waitFor("read Steps (stepCount)?"), "\(agent.output)")
        let after = Date()
        // The deadline is 300 s after the call's arrival, between the two readings; shown to the minute, in JST.
        let shown = Set([before, after].map { Self.tokyoClock($0.addingTimeInterval(300)) })
        let line = agent.output.split(whereSeparator: \.isNewline).first { $0.contains("answer by:") }.map(String.init) ?? ""
        #expect(shown.contains { line.contains("\($0) JST (4 min left)") || line.contains("\($0) JST (5 min left)") },
                "expected one of \(shown) JST: \(agent.output)")
        agent.type("cancel")
        #expect(try await agent.waitFor("cancelled prompt"), "\(agent.output)")
        _ = try? await request.value

        // An app that sets no deadline: the person is told there is no time limit.
        let patient = Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) }
        #expect(try await agent.waitFor("read Heart rate (heartRate)?"), "\(agent.output)")
        #expect(agent.output.contains("no time limit (the app waits until you answer)"), "\(agent.output)")
        agent.type("deny")
        #expect(try await agent.waitFor("answered prompt"), "\(agent.output)")
        try await patient.value
    }

    @Test func theBacklogShowsWhenTheAgentConnects() async throws {
        let daemon = try await DaemonProcess()
        let early = try await daemon.connectApp("com.example.early")
        defer { early.close() }
        let later = try await daemon.connectApp("com.example.later")
        defer { later.close() }
        // Two requests wait before any agent runs.
        let first = Task { try await early.requestAuthorization(toShare: [.bodyMass], read: [], timeout: .seconds(60)) }
        let admin = try await daemon.admin()
        defer { admin.close() }
        while try await admin.brokerInfo().openPrompts < 1 { try await Task.sleep(for: .milliseconds(20)) }
        let second = Task { try await later.requestAuthorization(toShare: [.stepCount], read: []) }
        while try await admin.brokerInfo().openPrompts < 2 { try await Task.sleep(for: .milliseconds(20)) }

        let agent = try Agent(daemon: daemon, terminal: true)
        defer { agent.stop() }
        // The older one is asked at once, the other is named as waiting behind it.
        #expect(try await agent.waitFor("share Body weight (bodyMass)?"), "\(agent.output)")
        #expect(try await agent.waitFor("from com.example.later is waiting; it comes after this one)"), "\(agent.output)")
        #expect(agent.output.contains("(com.example.early) asks for access"), "\(agent.output)")
        agent.type("allow")
        #expect(try await agent.waitFor("share Steps (stepCount)?"), "\(agent.output)")
        agent.type("deny")
        try await first.value
        try await second.value
        #expect(try await later.authorizationStatus(for: .stepCount) == .sharingDenied, "\(agent.output)")
    }

    @Test func aFutureDateIsRefusedAndAPromptWhoseAppStopsWaitingLeavesTheScreen() async throws {
        let (daemon, agent) = try await Self.started()
        defer { agent.stop() }
        let store = try await daemon.connectApp("com.example.hasty")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(4)) }
        #expect(try await agent.waitFor("read Steps (stepCount)?"), "\(agent.output)")
        #expect(agent.output.contains(" s left)"), "a short deadline is counted in seconds: \(agent.output)")
        agent.type("limited 2999-01-01")
        #expect(try await agent.waitFor("is in the future"), "\(agent.output)")
        #expect(agent.count("read Steps (stepCount)?") == 2, "the question is asked again: \(agent.output)")
        // Nothing more is typed: when the app's deadline passes the prompt leaves the screen by itself.
        #expect(try await agent.waitFor("withdrawn (the app stopped waiting)", timeout: 10), "\(agent.output)")
        #expect(try await agent.waitFor("its questions are dropped"), "\(agent.output)")
        #expect(try await agent.waitFor("waiting for prompts", count: 2), "\(agent.output)")
        let error = await #expect(throws: BrokerError.self) { try await request.value }
        #expect(error?.code == .deadlineExceeded)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.stepCount]) == .shouldRequest, "nothing was recorded")
    }
}
