import BrokerWire
import HealthBrokerClient

/// One app session on a bare socket, one call in flight: the call is encoded, sent, and every frame
/// read until the one that ends it, with nothing in between (no reader thread, no async hop) that
/// could add noise of its own to the time taken. A class so the timing closures can share it; used
/// from one task only.
final class PrivacyConnection {
    /// Stream items a call may send before it needs credit: more than any answer here has pages,
    /// so the client never has to grant more mid-answer (which would add a round trip).
    static let initialCredit: UInt32 = 4_096

    private var raw: RawConnection
    private var nextCallID: UInt64 = 1

    /// Connects to `socketPath` and opens a session as `appID`.
    init(socketPath: String, appID: String, token: String) throws(ScenarioFailure) {
        raw = try RawConnection(path: socketPath)
        let reply = try exchange(.hello(HelloRequest(appID: appID, appToken: token, protocolVersion: BrokerVersion.protocolVersion).proto))
        guard reply.status == "OK" else { throw ScenarioFailure("Hello as \(appID): \(reply.text)") }
    }

    /// The broker's process id (`SO_PEERCRED`), for its CPU time.
    var peerPID: Int32? { raw.peerPID }

    /// Sends `request` and reads its whole answer, kept for comparison.
    func exchange(_ request: Proto.Call.Request) throws(ScenarioFailure) -> PrivacyReply {
        let callID = nextCallID
        nextCallID += 1
        try raw.send(request, callID: callID, initialCredit: Self.initialCredit)
        var reply = PrivacyReply()
        while true {
            let frame = try raw.receive()
            guard frame.callID == callID else { throw ScenarioFailure("\(request.method.name): a frame for call \(frame.callID), expected \(callID)") }
            reply.add(frame)
            if frame.endsCall { return reply }
        }
    }

    /// Sends `request` and reads its answer to the end; returns the µs from just before the send to
    /// just after the last frame. Error statuses (NO_DATA, …) are answers like any other here.
    func timed(_ request: Proto.Call.Request) throws(ScenarioFailure) -> Double {
        let callID = nextCallID
        nextCallID += 1
        let start = ContinuousClock.now
        try raw.send(request, callID: callID, initialCredit: Self.initialCredit)
        while true {
            let frame = try raw.receive()
            if frame.endsCall { break }
        }
        return (ContinuousClock.now - start).micros
    }

    /// Closes the socket.
    func close() {
        raw.close()
    }

    /// The µs a Hello takes on a fresh connection as `appID` with `token` (the connect is not timed),
    /// and its answer. The broker closes the connection after refusing it, so each Hello needs its own.
    static func timedHello(socketPath: String, appID: String, token: String) throws(ScenarioFailure) -> (Double, PrivacyReply) {
        var raw = try RawConnection(path: socketPath)
        defer { raw.close() }
        let request = Proto.Call.Request.hello(HelloRequest(appID: appID, appToken: token, protocolVersion: BrokerVersion.protocolVersion).proto)
        let start = ContinuousClock.now
        try raw.send(request, callID: 1)
        let frame = try raw.receive()
        let micros = (ContinuousClock.now - start).micros
        var reply = PrivacyReply()
        reply.add(frame)
        return (micros, reply)
    }
}

extension Duration {
    /// The duration in µs, as a Double.
    var micros: Double {
        let (whole, attoseconds) = components
        return Double(whole) * 1e6 + Double(attoseconds) / 1e12
    }
}
