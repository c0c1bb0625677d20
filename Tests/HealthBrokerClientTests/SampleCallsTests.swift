import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

/// Save, delete, statistics and observe: what goes on the wire and what comes back.
@Suite("Sample calls over a fake broker")
struct SampleCallsTests {
    static let samples = [
        SampleFixtures.step(0),
        Sample(uuid: "sleep-1", type: .sleepAnalysis, startMicros: 1_000, endMicros: 2_000, value: .category(4)),
        Sample(
            uuid: "run-1", type: .workout, startMicros: 10_000, endMicros: 20_000,
            value: .workout(WorkoutDetails(activityType: "running", durationMicros: 9_000, totalDistance: Quantity(5, "km"))),
            metadata: ["b": "2", "a": "1"]),
    ]

    // MARK: Save

    @Test func saveSendsTheBatchWithoutADeadlineAndMapsTheCounts() async throws {
        let broker = try FakeBroker { request in
            if case .save = request { .save(saved: 2, unchanged: 1) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.save(Self.samples) == SaveResult(saved: 2, unchanged: 1))
        let call = try #require(broker.lastCall)
        #expect(call.request == .save(Self.samples))
        #expect(call.timeoutMicros == 0)
    }

    @Test func saveSendsTheTimeoutGiven() async throws {
        let broker = try FakeBroker { request in
            if case .save = request { .save(saved: 0, unchanged: 3) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.save(Self.samples, timeout: .seconds(5)) == SaveResult(saved: 0, unchanged: 3))
        #expect(broker.lastCall?.timeoutMicros == 5_000_000)
    }

    @Test(arguments: [
        BrokerError(.authorizationNotDetermined, "share access to steps was never requested"),
        BrokerError(.authorizationDenied, "sharing steps was denied"),
        BrokerError.invalidArgument("samples[1]: end is before start"),
        BrokerError.alreadyExists("samples[0]: uuid step-0 is stored with other content"),
    ])
    func saveThrowsTheBrokersError(error: BrokerError) async throws {
        let broker = try FakeBroker(failing: error)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: error) { try await store.save(Self.samples) }
    }

    // MARK: Delete

    @Test func deleteByUUIDsSendsThemWithADeadline() async throws {
        let broker = try FakeBroker { request in
            if case .delete(let delete) = request { .delete(deleted: UInt32(delete.uuids.count - 1)) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.delete(["step-0", "step-1", "missing"]) == 2)
        let call = try #require(broker.lastCall)
        #expect(call.request == .delete(uuids: ["step-0", "step-1", "missing"], type: nil, predicate: nil))
        #expect(call.timeoutMicros > 0)
    }

    @Test func deletingNoUUIDsAsksNothing() async throws {
        let broker = try FakeBroker { _ in .delete(deleted: 9) }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        #expect(try await store.delete([]) == 0)
        #expect(broker.requests.isEmpty)
    }

    @Test func deleteSamplesSendsTheTypeAndPredicate() async throws {
        let broker = try FakeBroker { request in
            if case .delete = request { .delete(deleted: 12) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let predicate = HealthStore.predicateForSamples(
            withStart: Date(timeIntervalSince1970: 1_700_000_000), end: Date(timeIntervalSince1970: 1_700_086_400), options: .strictStartDate)
        #expect(try await store.deleteSamples(of: .stepCount, predicate: predicate) == 12)
        #expect(broker.lastCall?.request == .delete(uuids: [], type: .stepCount, predicate: predicate))
        #expect(try await store.deleteSamples(of: .heartRate, predicate: .all) == 12)
        #expect(broker.lastCall?.request == .delete(uuids: [], type: .heartRate, predicate: .all))
    }

    @Test func deletingAnotherAppsSampleIsTheBrokersError() async throws {
        let denied = BrokerError(.authorizationDenied, "sample step-0 was saved by another app")
        let broker = try FakeBroker(failing: denied)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: denied) { try await store.delete(["step-0"]) }
        await #expect(throws: denied) { try await store.deleteSamples(of: .stepCount, predicate: .all) }
    }

    @Test func aResponseOfAnotherMethodIsInternal() async throws {
        let broker = try FakeBroker { _ in .save(saved: 1, unchanged: 0) }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) { try await store.delete(["a"]) }
        #expect(error?.code == .internal)
        let statisticsError = await #expect(throws: BrokerError.self) {
            try await store.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum))
        }
        #expect(statisticsError?.code == .internal)
    }

    // MARK: Statistics

    @Test func statisticsSendsTheQueryAndReturnsTheBuckets() async throws {
        let result = StatisticsResult(unit: "count", buckets: [
            StatisticsBucket(startMicros: 0, endMicros: 86_400_000_000, sampleCount: 3, sum: 1_234),
            StatisticsBucket(startMicros: 86_400_000_000, endMicros: 172_800_000_000, sampleCount: 0, sum: 0),
        ])
        let broker = try FakeBroker { request in
            if case .statistics = request { .statistics(result) } else { nil }
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let query = StatisticsQuery(
            type: .stepCount, predicate: SamplePredicate(startMicros: 0, endMicros: 172_800_000_000), options: .sum,
            interval: .day, anchorMicros: 0, timeZone: "Europe/Berlin", unit: "count")
        #expect(try await store.statistics(query) == result)
        let call = try #require(broker.lastCall)
        #expect(call.request == .statistics(query))
        #expect(call.timeoutMicros > 0)
    }

    @Test func discreteStatisticsKeepWhatIsThere() async throws {
        let result = StatisticsResult(unit: "count/min", buckets: [
            StatisticsBucket(startMicros: 5, endMicros: 10, sampleCount: 2, average: 61.5, minimum: 58, maximum: 65),
        ])
        let broker = try FakeBroker { _ in .statistics(result) }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let answer = try await store.statistics(StatisticsQuery(type: .heartRate, predicate: .all, options: [.average, .minimum, .maximum]))
        #expect(answer == result)
        #expect(answer.buckets.first?.sum == nil)
    }

    @Test func noDataIsTheBrokersError() async throws {
        let noData = BrokerError(.noData, "no samples of steps in the range")
        let broker = try FakeBroker(failing: noData)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: noData) {
            try await store.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum))
        }
    }

    // MARK: Observe

    @Test func observeSendsSortedTypesAndYieldsChanges() async throws {
        let broker = try FakeBroker { call in
            guard case .observe = call.request else { return [] }
            return [
                ServerFrame(callID: call.callID, response: .streamItem(.observed(type: .stepCount, changedMicros: 1_700_000_000_000_000))),
                ServerFrame(callID: call.callID, response: .streamItem(.observed(type: .heartRate, changedMicros: 1_700_000_000_500_000))),
                ServerFrame(callID: call.callID, status: .ok),
            ]
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        var changes: [SampleChange] = []
        for try await change in store.observe([.stepCount, .heartRate]) { changes.append(change) }
        #expect(changes == [
            SampleChange(type: .stepCount, changed: Date(timeIntervalSince1970: 1_700_000_000)),
            SampleChange(type: .heartRate, changed: Date(timeIntervalSince1970: 1_700_000_000.5)),
        ])
        let call = try #require(broker.lastCall)
        #expect(call.request == .observe([.heartRate, .stepCount]))
        #expect(call.timeoutMicros == 0)
        #expect(call.initialCredit == SampleChangeSequence.window)
    }

    @Test func leavingTheObserveLoopSendsCancel() async throws {
        let broker = try FakeBroker { call in
            guard case .observe = call.request else { return [] }
            return [ServerFrame(callID: call.callID, response: .streamItem(.observed(type: .stepCount, changedMicros: 1)))]
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        for try await change in store.observe([.stepCount]) {
            #expect(change.type == .stepCount)
            break
        }
        let callID = try #require(broker.lastCall?.callID)
        #expect(await waitUntil { broker.controlFrames.contains(.cancel(callID: callID)) })
    }

    @Test func observeThrowsTheBrokersError() async throws {
        let notDetermined = BrokerError(.authorizationNotDetermined, "read access to steps was never requested")
        let broker = try FakeBroker(failing: notDetermined)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: notDetermined) {
            for try await _ in store.observe([.stepCount]) {}
        }
    }
}
