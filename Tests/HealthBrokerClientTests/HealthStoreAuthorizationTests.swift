import BrokerWire
import Dispatch
import Foundation
import HealthBrokerClient
import Testing

/// The app-side authorization API against a scripted broker: what goes on the wire, what comes back.
@Suite("HealthStore authorization over a fake broker")
struct HealthStoreAuthorizationTests {
    @Test func requestAuthorizationSendsSortedTypesWithoutADeadline() async throws {
        let broker = try FakeBroker { request in
            if case .requestAuthorization = request { .requestAuthorization } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        try await store.requestAuthorization(toShare: [.stepCount, .bodyMass], read: [.heartRate, .stepCount, .dateOfBirth])
        let call = try #require(broker.lastCall)
        #expect(call.request == .requestAuthorization(
            share: [.bodyMass, .stepCount], read: [.dateOfBirth, .heartRate, .stepCount]))
        #expect(call.timeoutMicros == 0)
    }

    @Test func requestAuthorizationSendsTheTimeoutGiven() async throws {
        let broker = try FakeBroker { request in
            if case .requestAuthorization = request { .requestAuthorization } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(90))
        #expect(broker.lastCall?.timeoutMicros == 90_000_000)
    }

    @Test func requestAuthorizationThrowsTheBrokersError() async throws {
        let canceled = BrokerError(.userCanceled, "the person cancelled the prompt")
        let broker = try FakeBroker(failing: canceled)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: canceled) {
            try await store.requestAuthorization(toShare: [.stepCount], read: [])
        }
    }

    @Test func anUnexpectedResponseIsInternal() async throws {
        let broker = try FakeBroker { _ in .earliestPermittedSampleDate(0) }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) {
            try await store.requestAuthorization(toShare: [.stepCount], read: [])
        }
        #expect(error?.code == .internal)
        let statusError = await #expect(throws: BrokerError.self) { try await store.authorizationStatus(for: .stepCount) }
        #expect(statusError?.code == .internal)
    }

    @Test func theCompletionFormGivesSuccessTrueOnABackgroundQueue() async throws {
        let broker = try FakeBroker { request in
            if case .requestAuthorization = request { .requestAuthorization } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Result<Bool, BrokerError>, Bool), Never>) in
            store.requestAuthorization(toShare: [.stepCount], read: [.heartRate]) { result in
                continuation.resume(returning: (result, Thread.isMainThread))
            }
        }
        #expect(result.0 == .success(true))
        #expect(result.1 == false)
        #expect(broker.lastCall?.request == .requestAuthorization(share: [.stepCount], read: [.heartRate]))
    }

    @Test func theCompletionFormGivesTheBrokersError() async throws {
        let invalid = BrokerError.invalidArgument("both sets are empty")
        let broker = try FakeBroker(failing: invalid)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Bool, BrokerError>, Never>) in
            store.requestAuthorization(toShare: [], read: []) { continuation.resume(returning: $0) }
        }
        #expect(result == .failure(invalid))
    }

    @Test(arguments: AuthorizationStatus.allCases)
    func authorizationStatusIsTheBrokersAnswer(status: AuthorizationStatus) async throws {
        let broker = try FakeBroker { request in
            if case .authorizationStatus = request { .authorizationStatus(status) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.authorizationStatus(for: .heartRate) == status)
        #expect(broker.lastCall?.request == .authorizationStatus(.heartRate))
        #expect(broker.lastCall?.timeoutMicros ?? 0 > 0)
    }

    @Test(arguments: RequestStatus.allCases)
    func statusForAuthorizationRequestIsTheBrokersAnswer(status: RequestStatus) async throws {
        let broker = try FakeBroker { request in
            if case .requestStatus = request { .requestStatus(status) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.statusForAuthorizationRequest(toShare: [.workout], read: [.stepCount, .heartRate]) == status)
        #expect(broker.lastCall?.request == .requestStatus(share: [.workout], read: [.heartRate, .stepCount]))
    }

    @Test func earliestAuthorizedSampleDatesAreDates() async throws {
        let broker = try FakeBroker { request in
            if case .earliestAuthorizedSampleDate = request {
                .earliestAuthorizedSampleDate([.stepCount: 1_690_000_000_000_000, .heartRate: 1_695_000_000_250_000])
            } else {
                nil
            }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let dates = try await store.earliestAuthorizedSampleDate(for: [.stepCount, .heartRate, .bodyMass])
        #expect(dates == [
            .stepCount: Date(timeIntervalSince1970: 1_690_000_000),
            .heartRate: Date(timeIntervalSince1970: 1_695_000_000.25),
        ])
        #expect(broker.lastCall?.request == .earliestAuthorizedSampleDate([.bodyMass, .heartRate, .stepCount]))
    }

    @Test func noLimitedTypeIsAnEmptyDictionary() async throws {
        let broker = try FakeBroker { _ in .earliestAuthorizedSampleDate([:]) }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.earliestAuthorizedSampleDate(for: [.stepCount]).isEmpty)
    }

    @Test func earliestPermittedSampleDateIsADate() async throws {
        let broker = try FakeBroker { request in
            if case .earliestPermittedSampleDate = request { .earliestPermittedSampleDate(1_577_836_800_000_000) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.earliestPermittedSampleDate() == Date(timeIntervalSince1970: 1_577_836_800))
    }

    @Test func characteristicsKeepOnlyValuesThatAreSet() async throws {
        let broker = try FakeBroker { request in
            guard case .readCharacteristics = request else { return nil }
            return .readCharacteristics([
                CharacteristicValue(type: .biologicalSex, value: nil),
                CharacteristicValue(type: .bloodType, value: "A+"),
                CharacteristicValue(type: .dateOfBirth, value: "1990-04-01"),
            ])
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let values = try await store.characteristics([.dateOfBirth, .biologicalSex, .bloodType])
        #expect(values == [.bloodType: "A+", .dateOfBirth: "1990-04-01"])
        #expect(broker.lastCall?.request == .readCharacteristics([.biologicalSex, .bloodType, .dateOfBirth]))
    }

    @Test func theAccessRequestAsksTheStoreAndReadsNothingWhenReadTypesAreNil() async throws {
        let broker = try FakeBroker { request in
            if case .requestAuthorization = request { .requestAuthorization } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let results = Shared<[Result<Bool, BrokerError>]>([])
        let access = HealthDataAccessRequest(store: store, shareTypes: [.stepCount], trigger: 0) { result in
            results.withLock { $0.append(result.mapError { $0 as? BrokerError ?? .internal("\($0)") }) }
        }
        access.setTrigger(0)
        access.setTrigger(1)
        access.setTrigger(1)
        #expect(await waitUntil { results.current.count == 1 })
        #expect(results.current == [.success(true)])
        #expect(broker.requests == [.requestAuthorization(share: [.stepCount], read: [])])
    }

    @Test func theAccessRequestPassesTheReadTypesAndTheBrokersError() async throws {
        let canceled = BrokerError(.userCanceled, "the person cancelled the prompt")
        let broker = try FakeBroker(failing: canceled)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let results = Shared<[Result<Bool, BrokerError>]>([])
        let access = HealthDataAccessRequest(store: store, shareTypes: [], readTypes: [.heartRate, .stepCount], trigger: "a") { result in
            results.withLock { $0.append(result.mapError { $0 as? BrokerError ?? .internal("\($0)") }) }
        }
        access.setTrigger("b")
        #expect(await waitUntil { results.current.count == 1 })
        #expect(results.current == [.failure(canceled)])
        #expect(broker.requests == [.requestAuthorization(share: [], read: [.heartRate, .stepCount])])
    }
}
