#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import Foundation
import HealthBrokerClient

/// A scripted broker on a temporary Unix socket, the one stand-in for the daemon in the client's tests.
///
/// It answers Hello itself (with `helloResponse` or the one `answerHello(with:)` set, or — after
/// `refuseHello(with:)` — with that error, then closes the connection as the real broker does),
/// every other call with the frames `answer` returns, and every Cancel or Credit frame with the
/// frames `control` returns, on the connection the frame came on (no frames: the call stays open). It
/// records every frame received, serves any number of connections at once (one thread each), and lets
/// a test send frames or raw bytes unasked, close connections, and stop and start listening on the
/// same path (a broker restart).
///
/// Confinement: all mutable state is in `state`, touched only under its lock; each connection's socket
/// is written and closed only under that connection's own lock, and the two locks are never nested.
final class FakeBroker: Sendable {
    /// The frames that answer one call (Hello excepted).
    typealias Answer = @Sendable (Call) -> [ServerFrame]
    /// The frames that answer one Cancel or Credit frame.
    typealias Control = @Sendable (ClientFrame) -> [ServerFrame]

    struct State {
        var listenFD: Int32 = -1
        var open: [FakeConnection] = []
        var accepted = 0
        var ended = 0
        var received: [ClientFrame] = []
        var helloError: BrokerError?
        var helloResponse = FakeBroker.helloResponse
    }

    /// Where the fake listens.
    let socketPath: String
    let directory: String
    let answer: Answer
    let control: Control
    let state = Shared(State())

    /// Starts listening; `answer` maps each call but Hello to its replies, `control` each Cancel or
    /// Credit frame (streams that honour credit use it).
    init(answer: @escaping Answer = { _ in [] }, control: @escaping Control = { _ in [] }) throws {
        var template = Array("/tmp/hbc-fake-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FakeBrokerError("mkdtemp failed") }
        directory = String(cString: made)
        socketPath = directory + "/broker.sock"
        self.answer = answer
        self.control = control
        try startListening()
    }

    deinit {
        stop()
    }

    /// Stops listening, closes every connection (the client sees EOF) and removes the socket.
    func stop() {
        stopListening()
        closeConnections()
        rmdir(directory)
    }

    /// Closes every open connection (the client sees EOF); the fake keeps listening.
    func closeConnections() {
        for connection in state.withLock({ $0.open }) { connection.shutDown() }
    }

    /// Makes every later Hello fail with `error` (and close its connection); nil accepts Hello again.
    func refuseHello(with error: BrokerError?) {
        state.withLock { $0.helloError = error }
    }

    /// Makes every later accepted Hello answer `response`.
    func answerHello(with response: HelloResponse) {
        state.withLock { $0.helloResponse = response }
    }

    /// Sends `frame` unasked on the most recent open connection.
    func send(_ frame: ServerFrame) {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        sendBytes(bytes)
    }

    /// Sends raw bytes on the most recent open connection.
    func sendBytes(_ bytes: [UInt8]) {
        _ = state.withLock { $0.open.last }?.write(bytes)
    }
}

/// The fake broker could not start.
struct FakeBrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
