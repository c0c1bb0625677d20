import BrokerWire
import Foundation

extension FakeBroker {
    /// Every frame received on any connection, in order.
    var received: [ClientFrame] { state.withLock { $0.received } }

    /// Every call received, Hello included, in order.
    var calls: [Call] { Self.calls(in: received) }

    /// The requests of the calls received that are not Hello.
    var requests: [Proto.Call.Request] {
        calls.compactMap(\.request).filter { if case .hello = $0 { false } else { true } }
    }

    /// The last call received that is not Hello.
    var lastCall: Call? {
        calls.last { if case .hello? = $0.request { false } else { true } }
    }

    /// The Hello requests received, in order.
    var hellos: [HelloRequest] {
        calls.compactMap { if case .hello(let hello)? = $0.request { HelloRequest(proto: hello) } else { nil } }
    }

    /// Every Cancel and Credit frame received, in order.
    var controlFrames: [ClientFrame] {
        received.filter { if case .call = $0 { false } else { true } }
    }

    /// How many connections were accepted.
    var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// How many connections have ended (EOF, a bad frame, a refused Hello or `closeConnections`).
    var closedConnections: Int { state.withLock { $0.ended } }

    /// The calls among `frames`.
    static func calls(in frames: [ClientFrame]) -> [Call] {
        frames.compactMap { if case .call(let call) = $0 { call } else { nil } }
    }

    /// Waits (polling) until `predicate` holds for the frames received, or 5 s pass; returns them.
    @discardableResult
    func waitFor(_ predicate: @escaping @Sendable ([ClientFrame]) -> Bool) async -> [ClientFrame] {
        _ = await waitUntil(timeout: .seconds(30)) { predicate(self.received) }
        return received
    }

    /// Waits until at least `count` frames have arrived; returns them.
    @discardableResult
    func waitForFrames(_ count: Int) async -> [ClientFrame] {
        await waitFor { $0.count >= count }
    }

    /// Waits until at least `count` connections have ended; false if 5 s pass first.
    func waitForClosedConnections(_ count: Int) async -> Bool {
        await waitUntil(timeout: .seconds(30)) { self.closedConnections >= count }
    }

    /// Waits until at least `count` Hellos have arrived; false if `timeout` passes first.
    func waitForHellos(_ count: Int, timeout: Duration = .seconds(5)) async -> Bool {
        await waitUntil(timeout: timeout) { self.hellos.count >= count }
    }
}
