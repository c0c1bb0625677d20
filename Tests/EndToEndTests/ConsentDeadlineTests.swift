import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// A prompt tells the person how long the app waits: the deadline of the RequestAuthorization call
/// it belongs to (Call.timeout_us counted from arrival), 0 when the app set none.
@Suite("Consent: the app's deadline on the prompt")
struct ConsentDeadlineTests {
    /// Microseconds since the epoch, wall clock.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    @Test func thePromptCarriesTheDeadlineTheAppSetAndALateAgentSeesTheSame() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.timed")
        defer { store.close() }
        let before = Self.now()
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(90)) }
        let prompt = try await agent.prompt(0)
        let after = Self.now()
        // Counted from the call's arrival, which lies between the two readings.
        #expect(prompt.deadlineMicros >= before + 90_000_000, "deadline \(prompt.deadlineMicros), sent after \(before)")
        #expect(prompt.deadlineMicros <= after + 90_000_000, "deadline \(prompt.deadlineMicros), prompt seen at \(after)")
        #expect(prompt.deadline == Date(microsecondsSince1970: prompt.deadlineMicros))
        // The backlog a later agent receives carries the same deadline.
        let late = try await ConsentAgentHarness(daemon: daemon)
        #expect(try await late.prompt(0).deadlineMicros == prompt.deadlineMicros)
        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await request.value
    }

    @Test func aPromptWithoutADeadlineCarriesZero() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.patient")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) }
        let prompt = try await agent.prompt(0)
        #expect(prompt.deadlineMicros == 0)
        #expect(prompt.deadline == nil)
        try await agent.answerAll(prompt, share: .allow, read: .deny)
        try await request.value
    }

    /// One prompt per app at a time: each prompt shows the deadline of its own call, and when that
    /// call ends first (its prompt withdrawn), the next queued request's prompt has its own.
    @Test func queuedRequestsEachShowTheirOwnDeadline() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let credentials = try await daemon.registerApp("com.example.queued")
        let first = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.queued", appToken: credentials.token)
        defer { first.close() }
        let second = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.queued", appToken: credentials.token)
        defer { second.close() }
        let start = Self.now()
        let short = Task { try await first.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(2)) }
        let prompt1 = try await agent.prompt(0)
        let long = Task { try await second.requestAuthorization(toShare: [], read: [.sleepAnalysis], timeout: .seconds(120)) }
        #expect(prompt1.deadlineMicros >= start + 2_000_000 && prompt1.deadlineMicros < start + 12_000_000, "\(prompt1.deadlineMicros - start)")
        // The first call passes its deadline: its prompt is withdrawn, and the queued one is asked
        // with the deadline of the call that now waits.
        let error = await #expect(throws: BrokerError.self) { try await short.value }
        #expect(error?.code == .deadlineExceeded)
        #expect(try await agent.resolution(of: prompt1.id) == .withdrawn)
        let prompt2 = try await agent.prompt(1)
        #expect(prompt2.readTypes == [.sleepAnalysis])
        #expect(prompt2.deadlineMicros > prompt1.deadlineMicros)
        #expect(prompt2.deadlineMicros >= start + 120_000_000 && prompt2.deadlineMicros < Self.now() + 120_000_000, "\(prompt2.deadlineMicros - start)")
        try await agent.answerAll(prompt2, share: .allow, read: .full)
        try await long.value
    }
}
