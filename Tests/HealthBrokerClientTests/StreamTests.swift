import Foundation
import BrokerWire
import Testing
@testable import HealthBrokerClient

@Suite("Streams against a fake broker")
struct StreamTests {
    @Test func streamDeliversEveryItemInOrderWithBoundedCredit() async throws {
        let stream = CreditedStream(CreditedStream.pings(100))
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        var sequences: [UInt64] = []
        for try await reply in store.pingStream(count: 100, payload: [1, 2], window: 8) {
            #expect(reply.payload == [1, 2])
            #expect(reply.brokerTime == Date(timeIntervalSince1970: 3))
            sequences.append(reply.sequence)
        }
        #expect(sequences == Array(0..<100))
        let frames = broker.received
        let call = try #require(FakeBroker.calls(in: frames).last)
        #expect(call.initialCredit == 8)
        let credits = frames.compactMap { if case .credit(_, let items) = $0 { items } else { nil } }
        #expect(!credits.isEmpty && credits.allSatisfy { $0 == 4 })
        #expect(stream.peakAllowance <= 8)
        #expect(store.connection.pendingCallCount == 0)
    }

    @Test func windowZeroUsesTheDefault() async throws {
        let stream = CreditedStream(CreditedStream.pings(200))
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        var count = 0
        for try await _ in store.pingStream(count: 200, window: 0) { count += 1 }
        #expect(count == 200)
        #expect(broker.calls.last?.initialCredit == 64)
    }

    @Test func slowConsumerNeverBuffersMoreThanTheWindow() async throws {
        let stream = CreditedStream(CreditedStream.pings(40))
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        var iterator = store.pingStream(count: 40, window: 4).makeAsyncIterator()
        var received = 0
        while try await iterator.next() != nil {
            received += 1
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(received == 40)
        #expect(stream.peakAllowance <= 4)
    }

    @Test func errorStatusComesAfterTheItems() async throws {
        let stream = CreditedStream(CreditedStream.pings(3), end: Status(code: .dataLoss, message: "gone"))
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        var iterator = store.pingStream(count: 3, window: 8).makeAsyncIterator()
        var count = 0
        do {
            while try await iterator.next() != nil { count += 1 }
            Issue.record("no error")
        } catch {
            #expect(error == BrokerError(code: .dataLoss, message: "gone"))
        }
        #expect(count == 3)
        #expect(try await iterator.next() == nil, "nil after the error")
    }

    @Test func leavingTheLoopEarlySendsCancel() async throws {
        let stream = CreditedStream(CreditedStream.pings(1_000), end: nil)
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        for try await reply in store.pingStream(count: 1_000, window: 4) where reply.sequence == 2 {
            break
        }
        let frames = await broker.waitFor { $0.contains(.cancel(callID: 2)) }
        #expect(frames.contains(.cancel(callID: 2)))
        try await Task.sleep(for: .milliseconds(20))
        #expect(store.connection.pendingCallCount == 0)
        // The connection still works.
        #expect(try await store.ping(payload: [3]).payload == [3])
    }

    @Test func cancellingTheConsumerTaskThrowsCancelled() async throws {
        let stream = CreditedStream(CreditedStream.pings(5), end: nil)
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        let task = Task { () -> (Int, BrokerError?) in
            var count = 0
            do {
                // count 5 with a window of 64: five items, then the stream waits forever (no end).
                for try await _ in store.pingStream(count: 5, window: 64) { count += 1 }
                return (count, nil)
            } catch {
                return (count, error as Error as? BrokerError)
            }
        }
        await broker.waitFor { FakeBroker.calls(in: $0).count == 2 }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let (count, error) = await task.value
        #expect(count == 5)
        #expect(error?.code == .cancelled)
        let frames = await broker.waitFor { $0.contains(.cancel(callID: 2)) }
        #expect(frames.contains(.cancel(callID: 2)))
    }

    @Test func eofEndsAStreamWithUnavailable() async throws {
        let stream = CreditedStream(CreditedStream.pings(1), end: nil)
        let broker = try FakeBroker(pinging: stream)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        var iterator = store.pingStream(count: 1, window: 4).makeAsyncIterator()
        #expect(try await iterator.next()?.sequence == 0)
        broker.closeConnections()
        do {
            _ = try await iterator.next()
            Issue.record("no error")
        } catch {
            #expect(error.code == .unavailable)
        }
        do {
            for try await _ in store.pingStream(count: 1) {}
            Issue.record("no error")
        } catch {
            #expect(error.code == .unavailable)
        }
    }
}
