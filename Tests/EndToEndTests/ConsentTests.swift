import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// The person's side: agents, prompts that wait, cancel, queueing, policies.
@Suite("Consent")
struct ConsentTests {
    @Test func aWaitingRequestHonoursItsDeadlineAndALateAnswerRecordsNothing() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.late")
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) {
            try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .milliseconds(800))
        }
        #expect(error?.code == .deadlineExceeded)
        let prompt = try await agent.prompt(0)
        #expect(try await agent.resolution(of: prompt.id) == .withdrawn)
        let late = await #expect(throws: BrokerError.self) { try await agent.answerAll(prompt, share: .allow, read: .full) }
        #expect(late?.code == .notFound)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.stepCount]) == .shouldRequest)
        #expect(try await agent.admin.grants(for: "com.example.late").isEmpty)
    }

    @Test func cancellingAWaitingRequestWithdrawsItsPrompt() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.impatient")
        defer { store.close() }
        let task = Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) }
        let prompt = try await agent.prompt(0)
        task.cancel()
        if case .failure(let error as BrokerError) = await task.result {
            #expect(error.code == .cancelled)
        } else {
            Issue.record("the request should have been cancelled")
        }
        #expect(try await agent.resolution(of: prompt.id) == .withdrawn)
    }

    @Test func aDisconnectWithdrawsThePrompt() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.gone")
        let task = Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) }
        let prompt = try await agent.prompt(0)
        store.close()
        _ = await task.result
        #expect(try await agent.resolution(of: prompt.id) == .withdrawn)
    }

    @Test func thePersonCancellingIsUserCanceled() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.dismissed")
        defer { store.close() }
        let request = Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) }
        let prompt = try await agent.prompt(0)
        try await agent.admin.cancelPrompt(prompt.id)
        let error = await #expect(throws: BrokerError.self) { try await request.value }
        #expect(error?.code == .cancelled)
        #expect(error?.domain == .userCanceled)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.heartRate]) == .shouldRequest)
    }

    @Test func oneAppGetsOnePromptAtATimeAndTheNextRequestIsReevaluated() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let credentials = try await daemon.registerApp("com.example.twoconn")
        let first = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.twoconn", appToken: credentials.token)
        defer { first.close() }
        let second = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.twoconn", appToken: credentials.token)
        defer { second.close() }
        async let one: Void = first.requestAuthorization(toShare: [], read: [.stepCount, .heartRate])
        let prompt1 = try await agent.prompt(0)
        async let two: Void = second.requestAuthorization(toShare: [], read: [.stepCount, .sleepAnalysis])
        try await Task.sleep(for: .milliseconds(150))
        #expect(agent.raisedPrompts.count == 1)   // the second request waits its turn
        try await agent.answerAll(prompt1, share: .allow, read: .full)
        try await one
        let prompt2 = try await agent.prompt(1)
        #expect(prompt2.readTypes == [.sleepAnalysis])   // steps were decided meanwhile
        try await agent.answerAll(prompt2, share: .allow, read: .deny)
        try await two
    }

    @Test func anAgentThatConnectsLaterReceivesThePendingPromptAndTheFirstAnswerWins() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.patient")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [], read: [.bodyMass])
        try await Task.sleep(for: .milliseconds(100))
        let early = try await ConsentAgentHarness(daemon: daemon)
        let late = try await ConsentAgentHarness(daemon: daemon)
        let prompt = try await late.prompt(0)
        #expect(try await early.prompt(0).id == prompt.id)
        try await late.answerAll(prompt, share: .allow, read: .full)
        try await request
        #expect(try await early.resolution(of: prompt.id) == .answered)
        let second = await #expect(throws: BrokerError.self) { try await early.answerAll(prompt, share: .allow, read: .deny) }
        #expect(second?.code == .notFound)
    }

    @Test func answersForTypesNotInThePromptAreInvalid() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.strict")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [], read: [.stepCount])
        let prompt = try await agent.prompt(0)
        let error = await #expect(throws: BrokerError.self) {
            try await agent.answer(prompt, [TypeDecision(type: .heartRate, read: .full)])
        }
        #expect(error?.code == .invalidArgument)
        let sharePart = await #expect(throws: BrokerError.self) {
            try await agent.answer(prompt, [TypeDecision(type: .stepCount, share: .allow, read: .full)])
        }
        #expect(sharePart?.code == .invalidArgument)
        // The prompt is still open and can be answered properly.
        try await agent.answer(prompt, [TypeDecision(type: .stepCount, read: .full)])
        try await request
    }

    @Test func thePolicyDecidesFirstAndTheRestGoesToAgents() async throws {
        let policy = """
            { "rules": [
              { "app": "com.example.policy", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "limited", "last_days": 30 },
              { "app": "*", "types": ["HKQuantityTypeIdentifierHeartRate"], "share": "deny" }
            ] }
            """
        let path = NSTemporaryDirectory() + "policy-\(UUID().uuidString).json"
        try policy.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let daemon = try await DaemonProcess(extraArguments: ["--consent-policy", path])
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.policy")
        defer { store.close() }
        let before = Date()
        // Entirely covered by the policy: no prompt at all.
        try await store.requestAuthorization(toShare: [.heartRate], read: [.stepCount], timeout: .seconds(5))
        let after = Date()
        let dates = try await store.earliestAuthorizedSampleDate(for: [.stepCount])
        // "Last 30 days" was resolved once, when the decision was recorded (between our readings).
        let date = try #require(dates[.stepCount])
        #expect(date >= before.addingTimeInterval(-30 * 86_400 - 1))
        #expect(date <= after.addingTimeInterval(-30 * 86_400 + 1))
        #expect(try await store.authorizationStatus(for: .heartRate) == .sharingDenied)
        // Partly covered: the rest goes to the agent.
        async let request: Void = store.requestAuthorization(toShare: [.heartRate, .bodyMass], read: [.stepCount, .sleepAnalysis])
        let prompt = try await agent.prompt(0)
        #expect(prompt.shareTypes == [.bodyMass])
        #expect(prompt.readTypes == [.sleepAnalysis])
        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await request
        let grants = try await agent.admin.grants(for: "com.example.policy")
        #expect(grants.first { $0.type == .stepCount }?.decidedBy == "policy")
        #expect(grants.first { $0.type == .sleepAnalysis }?.decidedBy == "agent")
    }

    @Test func characteristicsAreReadOnlyWithReadAccessAndDeniedLooksUnset() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        try await agent.admin.setCharacteristic(.dateOfBirth, value: "1990-04-01")
        try await agent.admin.setCharacteristic(.bloodType, value: "A+")
        let bad = await #expect(throws: BrokerError.self) { try await agent.admin.setCharacteristic(.bloodType, value: "Z") }
        #expect(bad?.code == .invalidArgument)
        let store = try await daemon.connectApp("com.example.profile")
        defer { store.close() }
        let never = await #expect(throws: BrokerError.self) { _ = try await store.characteristics([.dateOfBirth]) }
        #expect(never?.domain == .authorizationNotDetermined)
        async let request: Void = store.requestAuthorization(toShare: [], read: [.dateOfBirth, .bloodType, .biologicalSex])
        try await agent.answer(try await agent.prompt(0), [
            TypeDecision(type: .dateOfBirth, read: .full),
            TypeDecision(type: .bloodType, read: .deny),
            TypeDecision(type: .biologicalSex, read: .full),
        ])
        try await request
        let values = try await store.characteristics([.dateOfBirth, .bloodType, .biologicalSex])
        #expect(values == [.dateOfBirth: "1990-04-01"])   // blood type denied and sex unset look the same
    }

    @Test func sourcesListEveryAppThatAskedAndExplainTellsTheOperatorWhy() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--earliest-permitted-date", "2025-01-01"])
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.explained")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [], read: [.stepCount, .heartRate])
        try await agent.answer(try await agent.prompt(0), [
            TypeDecision(type: .stepCount, read: .limited(fromMicros: day("2026-05-01"))),
            TypeDecision(type: .heartRate, read: .deny),
        ])
        try await request
        let sources = try await agent.admin.sources()
        #expect(sources.map(\.appID) == ["com.example.explained"])
        #expect(sources.first?.isRegistered == true)
        let limited = try await agent.admin.explain(appID: "com.example.explained", type: .stepCount)
        #expect(limited.effectiveReadFromMicros == day("2026-05-01"))
        #expect(limited.grant?.read == .limited(fromMicros: day("2026-05-01")))
        let denied = try await agent.admin.explain(appID: "com.example.explained", type: .heartRate)
        #expect(denied.grant?.read == .deny)
        #expect(denied.effectiveReadFromMicros == nil)
        let never = try await agent.admin.explain(appID: "com.example.explained", type: .sleepAnalysis)
        #expect(never.grant == nil)
        #expect(!never.text.isEmpty)
        // Removing the app drops its grants; it stays a source.
        _ = try await agent.admin.removeApp("com.example.explained")
        #expect(try await agent.admin.sources().first?.isRegistered == false)
    }

    @Test func theTriggerFiresOnlyWhenItsValueChanges() async throws {
        let policy = #"{ "rules": [ { "app": "*", "share": "allow", "read": "full" } ] }"#
        let path = NSTemporaryDirectory() + "policy-\(UUID().uuidString).json"
        try policy.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let daemon = try await DaemonProcess(extraArguments: ["--consent-policy", path])
        let store = try await daemon.connectApp("com.example.trigger")
        defer { store.close() }
        let completions = OrderLog()
        let access = HealthDataAccessRequest(store: store, shareTypes: [.workout], readTypes: [.heartRate], trigger: false) { result in
            completions.append((try? result.get()) == true ? "ok" : "error")
        }
        access.setTrigger(false)            // equal: nothing
        try await Task.sleep(for: .milliseconds(200))
        #expect(completions.entries.isEmpty)
        access.setTrigger(true)             // changed: one request
        try await waitUntil { completions.entries.count == 1 }
        #expect(completions.entries == ["ok"])
        #expect(try await store.authorizationStatus(for: .workout) == .sharingAuthorized)
        access.setTrigger(true)             // equal again: nothing
        try await Task.sleep(for: .milliseconds(200))
        #expect(completions.entries.count == 1)
    }
}
