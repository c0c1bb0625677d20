@testable import BrokerServer
@testable import BrokerTransport
import BrokerModel
import BrokerSupport
import BrokerWire
import Foundation

/// A real `Broker`, with a real `BrokerStore` in a temporary directory, on a real `EventLoop` that
/// the test's thread drives (`run(until:)`), and no sockets: connections are `InProcessConnection`s.
///
/// Make one per test, in a synchronous test function: the calling thread becomes the loop thread
/// and must stay so. `shutDown()` at the end stops the broker, runs the loop to its close and
/// removes the directory.
final class InProcessBroker {
    let broker: Broker
    let directory: URL
    private var nextAppConnectionID: UInt64 = 1
    private var nextAdminConnectionID: UInt64 = 1 << 48
    private var isShutDown = false

    /// The credentials of this process: an admin peer.
    static let ownPeer = PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid())

    init(_ configure: (inout BrokerConfiguration) throws -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = BrokerConfiguration()
        configuration.dataDirectory = directory.appendingPathComponent("data").path
        // Never bound: the broker starts without listening. It only checks no live broker serves them.
        configuration.appSocketPath = directory.appendingPathComponent("app.sock").path
        configuration.adminSocketPath = directory.appendingPathComponent("admin.sock").path
        configuration.logLevel = .error
        // Streams left open at the end of a test must not hold the shutdown up for long.
        configuration.shutdownGraceMicros = 50_000
        try configure(&configuration)
        broker = try Broker(configuration: configuration)
        try broker.start(listening: false)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var loop: EventLoop { broker.loop }

    /// A new connection on the app or the admin socket, accepted by the broker as a listener's would be.
    func connect(_ kind: Session.Kind, peer: PeerCredentials? = InProcessBroker.ownPeer) -> InProcessConnection {
        let id: UInt64
        switch kind {
        case .app:
            id = nextAppConnectionID
            nextAppConnectionID += 1
        case .admin:
            id = nextAdminConnectionID
            nextAdminConnectionID += 1
        }
        let connection = InProcessConnection(
            id: id, peer: peer, loop: loop,
            deliver: { [unowned broker] payload, connection in broker.receive(payload, on: connection) },
            reportClose: { [unowned broker] connection, error in broker.didClose(connection, error: error) })
        broker.accept(connection, kind: kind)
        return connection
    }

    /// Runs loop turns until `condition` holds; false if it still does not after `timeoutMicros`.
    @discardableResult
    func run(until condition: () throws -> Bool, timeoutMicros: Int64 = 5_000_000) rethrows -> Bool {
        let deadline = Microseconds.monotonic() + timeoutMicros
        while try !condition() {
            guard Microseconds.monotonic() < deadline else { return false }
            // A turn waits for an event; this timer bounds the wait, so the condition is looked at
            // again at least every 2 ms even when nothing happens.
            let backstop = loop.schedule(afterMicros: 2_000) {}
            loop.runOnce()
            loop.cancelTimer(backstop)
        }
        return true
    }

    /// Runs turns for `micros` (to see that something does not happen).
    func run(forMicros micros: Int64) {
        let end = Microseconds.monotonic() + micros
        run(until: { Microseconds.monotonic() >= end }, timeoutMicros: micros + 1_000_000)
    }

    /// Sends `request` as call `callID` and runs the loop until the frame that ends the call
    /// arrives; returns every frame for that call (stream items first). Frames for other calls
    /// are kept in `connection`'s backlog (`InProcessBroker.backlog`).
    func call(
        _ request: Proto.Call.Request, id callID: UInt64, on connection: InProcessConnection,
        timeoutMicros: Int64 = 0, initialCredit: UInt32 = 0
    ) throws -> [ServerFrame] {
        connection.receive(.call(Call(callID: callID, timeoutMicros: timeoutMicros, initialCredit: initialCredit, request: request)))
        return try frames(for: callID, on: connection, untilEnd: true)
    }

    /// Frames for `callID` gathered from `connection`, running the loop until one ends the call when
    /// `untilEnd` (at most 5 s), else only what is there now.
    func frames(for callID: UInt64, on connection: InProcessConnection, untilEnd: Bool) throws -> [ServerFrame] {
        var gathered: [ServerFrame] = []
        let ended = try run {
            for frame in try connection.takeFrames() {
                if frame.callID == callID { gathered.append(frame) } else { backlog.append(frame) }
            }
            return !untilEnd || gathered.last?.endsCall == true || connection.isClosed
        }
        if !ended { throw InProcessTimeout(callID: callID) }
        return gathered
    }

    /// Frames read for calls other than the one waited for.
    var backlog: [ServerFrame] = []

    // MARK: Set-up steps

    /// Registers `appID` through an admin connection and returns its token.
    func register(_ appID: String) throws -> String {
        let admin = connect(.admin)
        defer { admin.disconnect() }
        let frames = try call(.adminAddApp(AppRegistration(appID: appID, name: appID, readUsage: "tests", shareUsage: "tests")), id: 1, on: admin)
        guard frames.count == 1, case .adminAddApp(let credentials) = frames[0].response else {
            throw UnexpectedReply(frames: frames)
        }
        return credentials.appToken
    }

    /// An app connection that has said Hello as `appID` (registered first).
    func helloedApp(_ appID: String, helloID: UInt64 = 1) throws -> InProcessConnection {
        let token = try register(appID)
        let connection = connect(.app)
        let frames = try call(.hello(HelloRequest(appID: appID, appToken: token, protocolVersion: BrokerVersion.protocolVersion)), id: helloID, on: connection)
        guard frames.count == 1, case .hello = frames[0].response else { throw UnexpectedReply(frames: frames) }
        return connection
    }

    /// Stops the broker as a shutdown would and runs the loop until it has closed.
    func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        broker.beginShutdown(reason: "test finished")
        loop.run()
    }
}

/// A call did not end within the time `InProcessBroker.frames` waits.
struct InProcessTimeout: Error, CustomStringConvertible {
    let callID: UInt64
    var description: String { "call \(callID) did not end in time" }
}

/// A set-up step got a reply it did not expect.
struct UnexpectedReply: Error, CustomStringConvertible {
    let frames: [ServerFrame]
    var description: String { "unexpected reply: \(frames)" }
}
