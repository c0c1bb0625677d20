import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

/// The admin-side consent and grants API against a scripted broker.
@Suite("BrokerAdmin consent and grants over a fake broker")
struct BrokerAdminConsentTests {
    static let prompt = Prompt(
        id: 7, appID: "com.example.app", appName: "Example", readUsage: "to chart your steps",
        shareUsage: "to log workouts", shareTypes: [.workout], readTypes: [.heartRate, .stepCount],
        createdMicros: 1_700_000_000_000_000)

    @Test func watchPromptsYieldsEveryEventThenEnds() async throws {
        let events: [PromptEvent] = [
            .raised(Self.prompt),
            .resolved(promptID: 7, resolution: .answered),
            .resolved(promptID: 8, resolution: .withdrawn),
        ]
        let broker = try FakeBroker { call in
            guard case .adminWatchPrompts = call.request else { return [] }
            return events.map { ServerFrame(callID: call.callID, response: .streamItem(.promptEvent($0))) }
                + [ServerFrame(callID: call.callID, status: .ok)]
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        var received: [PromptEvent] = []
        for try await event in admin.watchPrompts() { received.append(event) }
        #expect(received == events)
        let call = try #require(broker.lastCall)
        #expect(call.request == .adminWatchPrompts)
        #expect(call.timeoutMicros == 0)
        #expect(call.initialCredit == 64)
    }

    @Test func watchPromptsThrowsTheBrokersError() async throws {
        let broker = try FakeBroker(failing: .shuttingDown())
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        await #expect(throws: BrokerError.shuttingDown()) {
            for try await _ in admin.watchPrompts() {}
        }
    }

    @Test func answerPromptSendsTheDecisions() async throws {
        let broker = try FakeBroker { request in
            if case .adminAnswerPrompt = request { .adminAnswerPrompt } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        let decisions = [
            TypeDecision(type: .workout, share: .allow),
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .stepCount, read: .limited(fromMicros: 1_690_000_000_000_000)),
        ]
        try await admin.answerPrompt(7, decisions: decisions)
        #expect(broker.lastCall?.request == .adminAnswerPrompt(promptID: 7, decisions: decisions))
    }

    @Test func answeringAGonePromptIsNotFound() async throws {
        let broker = try FakeBroker(failing: .notFound("no prompt 7"))
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        await #expect(throws: BrokerError.notFound("no prompt 7")) {
            try await admin.answerPrompt(7, decisions: [])
        }
        await #expect(throws: BrokerError.notFound("no prompt 7")) { try await admin.cancelPrompt(7) }
    }

    @Test func cancelPromptSendsTheID() async throws {
        let broker = try FakeBroker { request in
            if case .adminCancelPrompt = request { .adminCancelPrompt } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        try await admin.cancelPrompt(42)
        #expect(broker.lastCall?.request == .adminCancelPrompt(promptID: 42))
    }

    @Test func grantsRevokeAndSourcesAreTheBrokersAnswers() async throws {
        let grants = [
            Grant(type: .heartRate, read: .limited(fromMicros: 1_690_000_000_000_000), decidedMicros: 1_700_000_000_000_000, decidedBy: "policy"),
            Grant(type: .workout, share: .deny, read: .deny, decidedMicros: 1_700_000_000_000_001, decidedBy: "agent"),
        ]
        let sources = [
            Source(appID: "com.example.app", appName: "Example", firstRequestMicros: 1, lastRequestMicros: 2, isRegistered: true),
            Source(appID: "com.example.gone", appName: "Gone", firstRequestMicros: 3, lastRequestMicros: 4, isRegistered: false),
        ]
        let broker = try FakeBroker { request in
            switch request {
            case .adminListGrants: Proto.ServerFrame.Response.adminListGrants(grants)
            case .adminRevoke(let revoke): .adminRevoke(revoked: UInt32(revoke.types.isEmpty ? 5 : revoke.types.count))
            case .adminListSources: .adminListSources(sources)
            default: nil
            }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        #expect(try await admin.grants(for: "com.example.app") == grants)
        #expect(broker.lastCall?.request == .adminListGrants(appID: "com.example.app"))
        #expect(try await admin.revoke(appID: "com.example.app") == 5)
        #expect(broker.lastCall?.request == .adminRevoke(appID: "com.example.app", types: []))
        #expect(try await admin.revoke(appID: "com.example.app", types: [.stepCount, .heartRate]) == 2)
        #expect(broker.lastCall?.request == .adminRevoke(appID: "com.example.app", types: [.stepCount, .heartRate]))
        #expect(try await admin.sources() == sources)
    }

    @Test func setCharacteristicSetsAndClears() async throws {
        let broker = try FakeBroker { request in
            if case .adminSetCharacteristic = request { .adminSetCharacteristic } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        try await admin.setCharacteristic(.bloodType, value: "O-")
        try await admin.setCharacteristic(.dateOfBirth, value: nil)
        #expect(broker.requests == [
            .adminSetCharacteristic(CharacteristicValue(type: .bloodType, value: "O-")),
            .adminSetCharacteristic(CharacteristicValue(type: .dateOfBirth, value: nil)),
        ])
    }

    @Test func explainIsTheBrokersExplanation() async throws {
        let explanation = Explanation(
            grant: Grant(type: .stepCount, read: .limited(fromMicros: 1_690_000_000_000_000), decidedMicros: 1_700_000_000_000_000, decidedBy: "policy"),
            earliestPermittedMicros: 1_577_836_800_000_000, effectiveReadFromMicros: 1_690_000_000_000_000,
            text: "Example may read steps ending on or after 2023-07-22.")
        let broker = try FakeBroker { request in
            if case .adminExplain = request { .adminExplain(explanation) } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        #expect(try await admin.explain(appID: "com.example.app", type: .stepCount) == explanation)
        #expect(broker.lastCall?.request == .adminExplain(appID: "com.example.app", type: .stepCount))
    }
}
