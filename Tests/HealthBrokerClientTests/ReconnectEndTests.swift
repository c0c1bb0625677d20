import BrokerWire
import Foundation
import Testing
import HealthBrokerClient

/// When reconnecting stops for good: a refused Hello, attempts used up, `close()`, a released store,
/// or no policy at all.
@Suite("Reconnection ends")
struct ReconnectEndTests {
    static let quick = ReconnectPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(40))
    static let refused = BrokerError.unauthenticated("unknown app or wrong token")

    @Test func aRefusedHelloStopsReconnectingAndEveryLaterCallFailsWithIt() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        let log = StateLog(store.connectionStates)
        broker.refuseHello(with: Self.refused)
        broker.closeConnections()
        #expect(await log.waitForEnd())
        #expect(log.states.first == .connected)
        #expect(log.states.contains(.connecting))
        #expect(log.states.last == .disconnected(Self.refused))
        #expect(!store.isConnected)
        #expect(await failure { () async throws(BrokerError) in try await store.ping() } == Self.refused)
        #expect(await failure { () async throws(BrokerError) in try await store.ping(timeout: .seconds(5)) } == Self.refused)
        await #expect(throws: Self.refused) {
            for try await _ in store.pingStream(count: 1) {}
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(broker.acceptedConnections == 2)
        #expect(broker.hellos.count == 2)
    }

    @Test func anAppRemovedMidSessionFailsPendingCallsThenStops() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echoButZero)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        let pending = Task { try await store.ping(payload: [0]) }
        await broker.waitFor { FakeBroker.calls(in: $0).count == 2 }
        let removed = BrokerError.unauthenticated("app com.example.app was removed")
        broker.refuseHello(with: Self.refused)
        broker.send(ServerFrame(callID: 0, status: Status(removed)))
        broker.closeConnections()
        #expect(failure(await pending.result) == removed)
        #expect(await waitUntil { store.connection.isClosed })
        #expect(await failure { () async throws(BrokerError) in try await store.ping(timeout: .seconds(5)) } == Self.refused)
    }

    @Test func usedUpAttemptsGiveUpWithUnavailable() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let waits = RecordedWaits()
        let store = try await broker.connectApp(reconnect: ReconnectPolicy(maxAttempts: 3), timing: waits.timing)
        defer { store.close() }
        let log = StateLog(store.connectionStates)
        broker.goDown()
        #expect(await log.waitForEnd())
        let last = try #require(log.states.last?.error)
        #expect(last.code == .unavailable)
        #expect(last.message.contains("after 3 attempts"))
        #expect(waits.recorded.count == 3)
        #expect(log.states.filter { $0 == .connecting }.count == 3)
        try broker.startListening()
        #expect(await failure { () async throws(BrokerError) in try await store.ping(timeout: .seconds(5)) } == last)
        try await Task.sleep(for: .milliseconds(50))
        #expect(broker.acceptedConnections == 1)
    }

    @Test func closeWhileReconnectingFailsWaitingCallsAndStops() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        let log = StateLog(store.connectionStates)
        broker.goDown()
        #expect(await waitUntil { !store.isConnected })
        let waiting = Task { try await store.ping(timeout: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(50))
        store.close()
        let error = failure(await waiting.result)
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("closed by the client") == true)
        #expect(await log.waitForEnd())
        #expect(log.states.last?.error == error)
        try broker.startListening()
        try await Task.sleep(for: .milliseconds(100))
        #expect(broker.acceptedConnections == 1)
    }

    @Test func releasingTheStoreStopsReconnecting() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let log: StateLog
        do {
            let store = try await broker.connectApp(reconnect: Self.quick)
            log = StateLog(store.connectionStates)
            broker.goDown()
            #expect(await waitUntil { !store.isConnected })
        }
        #expect(await log.waitForEnd())
        try broker.startListening()
        try await Task.sleep(for: .milliseconds(100))
        #expect(broker.acceptedConnections == 1)
    }

    @Test func withoutAPolicyNothingReconnects() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp()
        defer { store.close() }
        let log = StateLog(store.connectionStates)
        broker.closeConnections()
        #expect(await log.waitForEnd())
        #expect(log.states.count == 2)
        #expect(log.states.first == .connected)
        #expect(log.states.last?.error?.code == .unavailable)
        let started = ContinuousClock.now
        let error = await failure { () async throws(BrokerError) in try await store.ping(timeout: .seconds(5)) }
        #expect(error?.code == .unavailable)
        #expect(ContinuousClock.now - started < .seconds(1), "no waiting without a policy")
        #expect(store.connection.isClosed)
        try await Task.sleep(for: .milliseconds(50))
        #expect(broker.acceptedConnections == 1)
    }
}
