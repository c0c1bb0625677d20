import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

/// `HealthStore.samples(of:…)`: request shape, page flattening, flow control and cancellation.
@Suite("SampleSequence over a fake broker")
struct SampleSequenceTests {
    static func isQuery(_ request: Proto.Call.Request) -> Bool {
        if case .query = request { true } else { false }
    }

    @Test func sendsTheQueryWithAPageWindowAndNoDeadline() async throws {
        let stream = CreditedStream([])
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let predicate = SamplePredicate(startMicros: 1_000, endMicros: 2_000, options: .strictStartDate)
        let sort = SampleSort(key: .endDate, descending: true)
        var count = 0
        for try await _ in store.samples(of: .stepCount, predicate: predicate, limit: 10, sort: sort, unit: "count", pageSize: 100) {
            count += 1
        }
        #expect(count == 0)
        let call = try #require(broker.lastCall)
        #expect(call.request == .query(SampleQuery(
            type: .stepCount, predicate: predicate, limit: 10, sort: sort, unit: "count", pageSize: 100)))
        #expect(call.timeoutMicros == 0)
        #expect(call.initialCredit == SampleSequence.pageWindow)
        #expect(SampleSequence.pageWindow >= 2 && SampleSequence.pageWindow <= 8)
    }

    @Test func theDefaultsAreAnOpenUnlimitedAscendingQuery() async throws {
        let stream = CreditedStream([])
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        for try await _ in store.samples(of: .heartRate) {}
        #expect(broker.lastCall?.request == .query(SampleQuery(type: .heartRate)))
    }

    @Test func pagesAreFlattenedInOrderAndCreditFollowsConsumption() async throws {
        let pages = SampleFixtures.pages(10, of: 3)
        let stream = CreditedStream(pages.map { .samples($0) } + [.samples([])])
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let window = Int(SampleSequence.pageWindow)

        var received: [Sample] = []
        var iterator = store.samples(of: .stepCount).makeAsyncIterator()
        while let sample = try await iterator.next() {
            received.append(sample)
            let pagesStarted = (received.count - 1) / 3 + 1
            // The broker never runs more than a window of pages ahead of the consumer.
            #expect(stream.sent - pagesStarted <= window)
        }
        #expect(received == pages.flatMap { $0 })
        #expect(stream.sent == pages.count + 1)

        let credits = broker.controlFrames.compactMap { frame -> UInt32? in
            if case .credit(let id, let items) = frame, id == stream.callID { items } else { nil }
        }
        #expect(credits.allSatisfy { $0 == SampleSequence.pageWindow / 2 })
        let granted = window + credits.reduce(0) { $0 + Int($1) }
        #expect(granted >= pages.count + 1)
        #expect(granted <= pages.count + 1 + window)
        #expect(!broker.controlFrames.contains(.cancel(callID: stream.callID)))
    }

    @Test func noCreditIsGrantedUntilPagesAreTaken() async throws {
        let stream = CreditedStream(SampleFixtures.pages(10, of: 3).map { .samples($0) })
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let window = Int(SampleSequence.pageWindow)

        var iterator = store.samples(of: .stepCount).makeAsyncIterator()
        for _ in 0..<3 { _ = try await iterator.next() }  // the whole first page
        #expect(await waitUntil { stream.sent == window })
        try await Task.sleep(for: .milliseconds(50))
        #expect(stream.sent == window)
        #expect(broker.controlFrames.isEmpty)

        // Taking page window/2 grants half a window back.
        for _ in 0..<(3 * (window / 2 - 1) + 1) { _ = try await iterator.next() }
        #expect(await waitUntil { !broker.controlFrames.isEmpty })
        #expect(broker.controlFrames == [.credit(callID: stream.callID, items: UInt32(window / 2))])
        #expect(await waitUntil { stream.sent == window + window / 2 })
    }

    @Test func leavingTheLoopEarlySendsCancel() async throws {
        let stream = CreditedStream(SampleFixtures.pages(3, of: 5).map { .samples($0) }, end: nil)
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        var first: Sample?
        for try await sample in store.samples(of: .stepCount) {
            first = sample
            break
        }
        #expect(first == SampleFixtures.step(0))
        #expect(await waitUntil { broker.controlFrames.contains(.cancel(callID: stream.callID)) })
    }

    @Test func cancellingTheTaskCancelsTheCall() async throws {
        let stream = CreditedStream([], end: nil)
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let task = Task {
            var count = 0
            for try await _ in store.samples(of: .stepCount) { count += 1 }
            return count
        }
        #expect(await waitUntil { stream.callID != 0 })
        task.cancel()
        let error = await #expect(throws: BrokerError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(await waitUntil { broker.controlFrames.contains(.cancel(callID: stream.callID)) })
    }

    @Test func theBrokersErrorIsThrownAfterThePagesBeforeIt() async throws {
        let notDetermined = BrokerError(.authorizationNotDetermined, "read access to steps was never requested")
        let stream = CreditedStream([.samples([SampleFixtures.step(0)])], end: Status(notDetermined))
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        var received: [Sample] = []
        await #expect(throws: notDetermined) {
            for try await sample in store.samples(of: .stepCount) { received.append(sample) }
        }
        #expect(received == [SampleFixtures.step(0)])
    }

    @Test func aNegativeLimitOrPageSizeIsInvalidAndSendsNothing() async throws {
        let broker = try FakeBroker { _ in [] }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let limitError = await #expect(throws: BrokerError.self) {
            for try await _ in store.samples(of: .stepCount, limit: -1) {}
        }
        #expect(limitError?.code == .invalidArgument)
        #expect(limitError?.message.contains("limit") == true)
        let pageError = await #expect(throws: BrokerError.self) {
            for try await _ in store.samples(of: .stepCount, pageSize: -5) {}
        }
        #expect(pageError?.code == .invalidArgument)
        #expect(broker.requests.isEmpty)
    }

    @Test func anItemOfAnotherMethodIsInternal() async throws {
        let stream = CreditedStream([.observed(type: .stepCount, changedMicros: 1)])
        let broker = try FakeBroker(serving: stream, when: Self.isQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) {
            for try await _ in store.samples(of: .stepCount) {}
        }
        #expect(error?.code == .internal)
    }

    @Test func eachIterationRunsTheQueryAgain() async throws {
        let broker = try FakeBroker { call in
            guard case .query = call.request else { return [] }
            return [
                ServerFrame(callID: call.callID, response: .streamItem(.samples([SampleFixtures.step(0)]))),
                ServerFrame(callID: call.callID, status: .ok),
            ]
        }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let sequence = store.samples(of: .stepCount)
        for _ in 0..<2 {
            var received: [Sample] = []
            for try await sample in sequence { received.append(sample) }
            #expect(received == [SampleFixtures.step(0)])
        }
        #expect(broker.requests.count == 2)
    }
}
