import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Microseconds since the epoch of `date`, rounded.
func micros(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

/// `YYYY-MM-DD` at midnight UTC, in microseconds.
func day(_ text: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return micros(formatter.date(from: text)!)
}

/// Requesting authorization, prompts, and what each app may learn.
@Suite("Authorization")
struct AuthorizationTests {
    @Test func aPromptAsksOnlyForUndecidedTypesAndCompletesTheRequestAfterTheAnswer() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.steps")
        defer { store.close() }

        async let first: Void = store.requestAuthorization(toShare: [], read: [.stepCount, .heartRate])
        let prompt1 = try await agent.prompt(0)
        #expect(prompt1.appID == "com.example.steps")
        #expect(prompt1.readTypes == [.heartRate, .stepCount])
        #expect(prompt1.shareTypes.isEmpty)
        #expect(prompt1.readUsage == "reads for tests")
        try await agent.answerAll(prompt1, share: .allow, read: .full)
        try await first

        // Steps are decided for reading but not for sharing; sleep never asked.
        async let second: Void = store.requestAuthorization(toShare: [.stepCount], read: [.stepCount, .sleepAnalysis])
        let prompt2 = try await agent.prompt(1)
        #expect(prompt2.shareTypes == [.stepCount])
        #expect(prompt2.readTypes == [.sleepAnalysis])
        try await agent.answerAll(prompt2, share: .deny, read: .deny)
        try await second
        #expect(try await agent.resolution(of: prompt2.id) == .answered)
    }

    @Test func aRequestForDecidedTypesCompletesAtOnceWithoutAPrompt() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.again")
        defer { store.close() }
        async let first: Void = store.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass])
        try await agent.answerAll(try await agent.prompt(0), share: .allow, read: .full)
        try await first
        try await store.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass], timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(100))
        #expect(agent.raisedPrompts.count == 1)
    }

    @Test func denyingEverythingIsStillASuccess() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.denied")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [.heartRate], read: [.heartRate, .stepCount])
        try await agent.answer(try await agent.prompt(0), [])   // every toggle left off: all denied
        try await request
        #expect(try await store.authorizationStatus(for: .heartRate) == .sharingDenied)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.heartRate], read: [.stepCount]) == .unnecessary)
        #expect(try await store.earliestAuthorizedSampleDate(for: [.heartRate, .stepCount]).isEmpty)
    }

    @Test func authorizationStatusReportsSharingOnly() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.status")
        defer { store.close() }
        #expect(try await store.authorizationStatus(for: .stepCount) == .notDetermined)
        async let request: Void = store.requestAuthorization(toShare: [.stepCount, .workout], read: [.heartRate])
        let prompt = try await agent.prompt(0)
        try await agent.answer(prompt, [
            TypeDecision(type: .stepCount, share: .allow),
            TypeDecision(type: .workout, share: .deny),
            TypeDecision(type: .heartRate, read: .full),
        ])
        try await request
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
        #expect(try await store.authorizationStatus(for: .workout) == .sharingDenied)
        // A read-only grant leaves the share status not determined.
        #expect(try await store.authorizationStatus(for: .heartRate) == .notDetermined)
        let error = await #expect(throws: BrokerError.self) { _ = try await store.authorizationStatus(for: ObjectType("HKQuantityTypeIdentifierNope")) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("HKQuantityTypeIdentifierNope") == true)
    }

    @Test func requestStatusIsPerSet() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.reqstatus")
        defer { store.close() }
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.stepCount]) == .shouldRequest)
        async let request: Void = store.requestAuthorization(toShare: [], read: [.stepCount])
        try await agent.answerAll(try await agent.prompt(0), share: .deny, read: .deny)
        try await request
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.stepCount]) == .unnecessary)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .shouldRequest)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [.stepCount, .heartRate]) == .shouldRequest)
        let empty = await #expect(throws: BrokerError.self) { _ = try await store.statusForAuthorizationRequest(toShare: [], read: []) }
        #expect(empty?.code == .invalidArgument)
        let unknown = await #expect(throws: BrokerError.self) { _ = try await store.statusForAuthorizationRequest(toShare: [], read: [ObjectType("bogus")]) }
        #expect(unknown?.code == .invalidArgument)
    }

    @Test func earliestAuthorizedSampleDateFollowsEveryOmissionRule() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--earliest-permitted-date", "2025-01-01"])
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.earliest")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(
            toShare: [], read: [.stepCount, .heartRate, .bodyMass, .activeEnergyBurned, .dateOfBirth])
        let prompt = try await agent.prompt(0)
        try await agent.answer(prompt, [
            TypeDecision(type: .stepCount, read: .limited(fromMicros: day("2026-03-01"))),          // later than the floor
            TypeDecision(type: .activeEnergyBurned, read: .limited(fromMicros: day("2024-06-01"))), // earlier than the floor
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .bodyMass, read: .deny),
            TypeDecision(type: .dateOfBirth, read: .full),
        ])
        try await request
        let asked: Set<ObjectType> = [.stepCount, .activeEnergyBurned, .heartRate, .bodyMass, .dateOfBirth, .sleepAnalysis]
        let dates = try await store.earliestAuthorizedSampleDate(for: asked)
        // Only the limited grants; full, denied, characteristic and never-asked types have no entry.
        #expect(Set(dates.keys) == [.stepCount, .activeEnergyBurned])
        #expect(dates[.stepCount].map(micros) == day("2026-03-01"))
        #expect(dates[.activeEnergyBurned].map(micros) == day("2025-01-01"))
        // Types not in the call are not in the answer; nothing qualifying gives an empty map.
        #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount]).keys.sorted() == [.stepCount])
        #expect(try await store.earliestAuthorizedSampleDate(for: [.heartRate, .bodyMass, .sleepAnalysis]).isEmpty)
        #expect(try await store.earliestAuthorizedSampleDate(for: []).isEmpty)
        #expect(micros(try await store.earliestPermittedSampleDate()) == day("2025-01-01"))
    }

    @Test func invalidRequestsAreRefusedWithoutAPrompt() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let credentials = try await daemon.registerApp("com.example.readonly", readUsage: "reads", shareUsage: "")
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.readonly", appToken: credentials.token)
        defer { store.close() }
        let writerCredentials = try await daemon.registerApp("com.example.writeonly", readUsage: "", shareUsage: "writes")
        let writer = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.writeonly", appToken: writerCredentials.token)
        defer { writer.close() }

        func refusal(_ body: () async throws -> Void) async -> BrokerError? {
            do {
                try await body()
                return nil
            } catch {
                return error as? BrokerError
            }
        }
        let empty = await refusal { try await store.requestAuthorization(toShare: [], read: []) }
        #expect(empty?.code == .invalidArgument)
        let characteristic = await refusal { try await writer.requestAuthorization(toShare: [.dateOfBirth, .bloodType], read: []) }
        #expect(characteristic?.code == .invalidArgument)
        #expect(characteristic?.message.contains("HKCharacteristicTypeIdentifierDateOfBirth") == true)
        #expect(characteristic?.message.contains("HKCharacteristicTypeIdentifierBloodType") == true)
        let noShareUsage = await refusal { try await store.requestAuthorization(toShare: [.stepCount], read: []) }
        #expect(noShareUsage?.code == .invalidArgument)
        let noReadUsage = await refusal { try await writer.requestAuthorization(toShare: [], read: [.stepCount]) }
        #expect(noReadUsage?.code == .invalidArgument)
        let unknown = await refusal { try await store.requestAuthorization(toShare: [], read: [ObjectType("HKQuantityTypeIdentifierMadeUp")]) }
        #expect(unknown?.message.contains("HKQuantityTypeIdentifierMadeUp") == true)
        try await Task.sleep(for: .milliseconds(100))
        #expect(agent.raisedPrompts.isEmpty)
    }

    @Test func revokedTypesAreNotDeterminedAgainAndCanBeAskedAgain() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.revoke")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        try await agent.answerAll(try await agent.prompt(0), share: .allow, read: .limited(fromMicros: day("2026-01-01")))
        try await request
        #expect(try await agent.admin.revoke(appID: "com.example.revoke", types: [.stepCount]) == 1)
        #expect(try await store.authorizationStatus(for: .stepCount) == .notDetermined)
        #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount]).isEmpty)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .shouldRequest)
        async let again: Void = store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        let prompt = try await agent.prompt(1)
        #expect(prompt.shareTypes == [.stepCount] && prompt.readTypes == [.stepCount])
        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await again
    }

    @Test func anOddSpellingOfATypeIsTheCataloguedTypeAndARevocationReachesIt() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.kelvin")
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.kelvin", appToken: credentials.token)
        // Steps with its K as U+212A KELVIN SIGN. `ObjectType` would respell it in this process
        // too, so the frame is made with a same-length stand-in and the bytes swapped in.
        let odd = Array("H\u{212A}QuantityTypeIdentifierStepCount".utf8)
        let standIn = Array("HxxxQuantityTypeIdentifierStepCount".utf8)
        #expect(odd.count == standIn.count)
        var frame: [UInt8] = []
        let request = Proto.Call.Request.requestAuthorization(share: [ObjectType(String(decoding: standIn, as: UTF8.self))], read: [])
        WireCodec.append(ClientFrame.call(Call(callID: 9_000, request: request)), to: &frame)
        let at = try #require(frame.firstRange(of: standIn))
        frame.replaceSubrange(at, with: odd)
        try store.connection.sendRaw(frame)

        // The prompt shows the catalogued type, and the answer is stored under it.
        let prompt = try await agent.prompt(0)
        #expect(prompt.shareTypes.map { Array($0.identifier.utf8) } == [Array(ObjectType.stepCount.identifier.utf8)])
        try await agent.answer(prompt, [TypeDecision(type: .stepCount, share: .allow)])
        #expect(try await agent.resolution(of: prompt.id) == .answered)
        #expect(try await store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
        // Revoking stepCount reaches that grant (before, it answered 0 and left the odd row behind).
        #expect(try await agent.admin.revoke(appID: "com.example.kelvin", types: [.stepCount]) == 1)
        #expect(try await store.authorizationStatus(for: .stepCount) == .notDetermined)
        store.close()

        // And it stays revoked across a restart (the odd row used to come back from SQLite).
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        let again = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.kelvin", appToken: credentials.token)
        defer { again.close() }
        #expect(try await again.authorizationStatus(for: .stepCount) == .notDetermined)
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.grants(for: "com.example.kelvin").isEmpty)
    }

    @Test func decisionsSurviveARestart() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.persist")
        do {
            let agent = try await ConsentAgentHarness(daemon: daemon)
            let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.persist", appToken: credentials.token)
            async let request: Void = store.requestAuthorization(toShare: [.heartRate], read: [.stepCount])
            try await agent.answer(try await agent.prompt(0), [
                TypeDecision(type: .heartRate, share: .allow),
                TypeDecision(type: .stepCount, read: .limited(fromMicros: day("2026-02-01"))),
            ])
            try await request
            store.close()
        }
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.persist", appToken: credentials.token)
        defer { store.close() }
        #expect(try await store.authorizationStatus(for: .heartRate) == .sharingAuthorized)
        #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount])[.stepCount].map(micros) == day("2026-02-01"))
        #expect(try await store.statusForAuthorizationRequest(toShare: [.heartRate], read: [.stepCount]) == .unnecessary)
    }

    @Test func earliestAuthorizedSampleDateFollowsARevocationOnTheSameStore() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.revoked")
        defer { store.close() }
        async let request: Void = store.requestAuthorization(toShare: [], read: [.stepCount])
        try await agent.answerAll(try await agent.prompt(0), share: .allow, read: .limited(fromMicros: day("2026-03-01")))
        try await request
        // Asked twice: the second answer may be the one the store kept, and must still be right.
        for _ in 0..<2 {
            #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount])[.stepCount].map(micros) == day("2026-03-01"))
        }
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.revoke(appID: "com.example.revoked", types: [.stepCount]) >= 1)
        #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount]).isEmpty)
    }

    @Test func twoAppsCannotSeeEachOthersGrants() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let granted = try await daemon.connectApp("com.example.granted")
        defer { granted.close() }
        let other = try await daemon.connectApp("com.example.other")
        defer { other.close() }
        async let request: Void = granted.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        try await agent.answerAll(try await agent.prompt(0), share: .allow, read: .limited(fromMicros: day("2026-01-01")))
        try await request
        #expect(try await other.authorizationStatus(for: .stepCount) == .notDetermined)
        #expect(try await other.earliestAuthorizedSampleDate(for: [.stepCount]).isEmpty)
        #expect(try await other.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .shouldRequest)
    }
}
