import BrokerWire
import Foundation
import Testing
import HealthBrokerClient

/// A store with a reconnect policy against a fake broker that drops its connections.
@Suite("Reconnection against a fake broker")
struct ReconnectTests {
    static let quick = ReconnectPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(40))
    static let hello = HelloRequest(appID: "com.example.app", appToken: "token", protocolVersion: BrokerVersion.protocolVersion)

    @Test func aDropFailsPendingCallsThenReconnectsReplayingHello() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echoButZero)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        let pending = Task { try await store.ping(payload: [0]) }
        await broker.waitFor { FakeBroker.calls(in: $0).count == 2 }
        broker.closeConnections()
        let error = failure(await pending.result)
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains(broker.socketPath) == true)

        #expect(await broker.waitForHellos(2))
        #expect(await waitUntil { store.isConnected })
        #expect(try await store.ping(payload: [7], timeout: .seconds(5)).payload == [7])
        #expect(broker.hellos == [Self.hello, Self.hello])
        #expect(broker.acceptedConnections == 2)
        #expect(broker.requests.filter { $0 == .ping(PingRequest(payload: [0])) }.count == 1, "never retried")
    }

    @Test func aStreamInFlightFailsWithUnavailable() async throws {
        let stream = CreditedStream(CreditedStream.pings(2), end: nil)
        let broker = try FakeBroker(pinging: stream)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        var iterator = store.pingStream(count: 2, window: 4).makeAsyncIterator()
        #expect(try await iterator.next()?.sequence == 0)
        #expect(await waitUntil { stream.sent == 2 })
        broker.closeConnections()
        #expect(try await iterator.next()?.sequence == 1, "items already received are still handed over")
        await #expect(throws: BrokerError.self) { _ = try await iterator.next() }
        #expect(await waitUntil { store.isConnected })
        #expect(try await store.ping(payload: [3], timeout: .seconds(5)).payload == [3])
    }

    @Test func callsWhileDownWaitUpToTheirTimeout() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: ReconnectPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(20)))
        defer { store.close() }
        broker.goDown()
        #expect(await waitUntil { !store.isConnected })
        let clock = ContinuousClock()

        var started = clock.now
        let immediate = await failure { () async throws(BrokerError) in try await store.ping() }
        #expect(immediate?.code == .unavailable, "no timeout: fails at once")
        #expect(clock.now - started < .seconds(1))
        await #expect(throws: BrokerError.self) {
            for try await _ in store.pingStream(count: 1) {}
        }

        started = clock.now
        let late = await failure { () async throws(BrokerError) in try await store.ping(timeout: .milliseconds(300)) }
        #expect(late?.code == .unavailable, "the broker did not come back in time")
        #expect(clock.now - started >= .milliseconds(300))

        let waiting = Task { try await store.ping(payload: [5], timeout: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        try broker.startListening()
        #expect(try await waiting.value.payload == [5])
        let sent = try #require(broker.lastCall)
        #expect(sent.timeoutMicros > 0 && sent.timeoutMicros < 20_000_000, "what is left of the timeout")
    }

    @Test func aCompletionCallWaitsForTheReconnectionToo() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        broker.goDown()
        #expect(await waitUntil { !store.isConnected })
        let result = Shared<Result<PingReply, BrokerError>?>(nil)
        store.ping(payload: [6], timeout: .seconds(20)) { reply in result.withLock { $0 = reply } }
        try await Task.sleep(for: .milliseconds(50))
        try broker.startListening()
        #expect(await waitUntil { result.current != nil })
        #expect(try result.current?.get().payload == [6])
    }

    @Test func cancellingAWaitingCallIsCancelled() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        broker.goDown()
        #expect(await waitUntil { !store.isConnected })
        let waiting = Task { try await store.ping(timeout: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        #expect(failure(await waiting.result)?.code == .cancelled)
    }

    @Test func theSessionUpdatesAfterEachHello() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        defer { store.close() }
        #expect(store.session.brokerVersion == "9.9.9")
        var restarted = FakeBroker.helloResponse
        restarted.brokerVersion = "10.0.0"
        restarted.maxCallsInFlight = 32
        broker.answerHello(with: restarted)
        broker.closeConnections()
        #expect(await waitUntil { store.session.brokerVersion == "10.0.0" })
        #expect(store.session == SessionInfo(restarted))
        #expect(await waitUntil { store.isConnected })
    }

    @Test func connectionStatesFollowTheCycle() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: Self.quick)
        let log = StateLog(store.connectionStates)
        #expect(await waitUntil { log.states == [.connected] })
        broker.closeConnections()
        #expect(await waitUntil { log.states.count >= 4 && log.states.last == .connected })
        #expect(log.states[1].error?.code == .unavailable)
        #expect(log.states[2] == .connecting)
        let late = StateLog(store.connectionStates)
        #expect(await waitUntil { late.states == [.connected] }, "a new sequence starts with the current state")
        store.close()
        #expect(await log.waitForEnd())
        #expect(await late.waitForEnd())
        #expect(log.states.last?.error?.message.contains("closed by the client") == true)
        #expect(!store.isConnected)
    }
}
