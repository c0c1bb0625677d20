import BrokerWire
import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// A store with a reconnect policy across real daemon restarts on the same paths.
@Suite("Reconnection to a restarted daemon")
struct ReconnectTests {
    static let policy = ReconnectPolicy(initialDelay: .milliseconds(20), maxDelay: .milliseconds(250))

    /// Collects a store's connection states as they come.
    ///
    /// Confinement: `seen` and `ended` are touched only under `lock`.
    final class States: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [ConnectionState] = []
        private var ended = false

        /// Starts collecting `states`.
        init(_ states: AsyncStream<ConnectionState>) {
            Task { [self] in
                for await state in states { locked { seen.append(state) } }
                locked { ended = true }
            }
        }

        /// The states seen so far.
        var all: [ConnectionState] { locked { seen } }
        /// True once the sequence has ended.
        var isFinished: Bool { locked { ended } }

        private func locked<T>(_ body: () -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }

    @Test func aRestartFailsPendingCallsThenTheStoreReconnects() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--shutdown-grace-ms", "200"])
        let credentials = try await daemon.registerApp("com.example.reconnect")
        let store = try await HealthStore.connect(
            socketPath: daemon.appSocket, appID: "com.example.reconnect", appToken: credentials.token, reconnect: Self.policy)
        defer { store.close() }
        let states = States(store.connectionStates)
        let firstSession = store.session
        #expect(store.isConnected)

        let pending = Task { try await store.ping(delay: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await daemon.stop(signal: SIGTERM) == 0)
        let result = await pending.result
        guard case .failure(let error as BrokerError) = result else {
            Issue.record("expected UNAVAILABLE, got \(result)")
            return
        }
        #expect(error.code == .unavailable)

        // While the daemon is down: no timeout fails at once.
        try await waitUntil { !store.isConnected }
        let down = await #expect(throws: BrokerError.self) { _ = try await store.ping() }
        #expect(down?.code == .unavailable)

        try await daemon.start()
        let reply = try await store.ping(payload: [42], timeout: .seconds(15))
        #expect(reply.payload == [42])
        #expect(store.isConnected)
        #expect(store.session.brokerClock >= firstSession.brokerClock)
        #expect(states.all.first == .connected)
        #expect(states.all.contains(.connecting))
        #expect(states.all.last == .connected)
        #expect(daemon.log().components(separatedBy: "session opened").count - 1 >= 2, "Hello replayed")
    }

    @Test func aRotatedTokenStopsReconnectingWithUnauthenticated() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.rotated")
        let store = try await HealthStore.connect(
            socketPath: daemon.appSocket, appID: "com.example.rotated", appToken: credentials.token, reconnect: Self.policy)
        defer { store.close() }
        let states = States(store.connectionStates)
        _ = try await store.ping()

        let admin = try await daemon.admin()
        _ = try await admin.rotateToken("com.example.rotated")
        admin.close()
        #expect(try await daemon.stop(signal: SIGTERM) == 0)
        try await daemon.start()

        try await waitUntil(seconds: 15) { states.isFinished }
        let last = try #require(states.all.last)
        guard case .disconnected(let refused) = last else {
            Issue.record("expected a final disconnected state, got \(states.all)")
            return
        }
        #expect(refused.code == .unauthenticated)
        #expect(!store.isConnected)
        let later = await #expect(throws: BrokerError.self) { _ = try await store.ping(timeout: .seconds(5)) }
        #expect(later == refused)
        #expect(daemon.log().contains("hello refused"))
    }
}
