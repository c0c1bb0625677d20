import BrokerModel
import BrokerSupport
import BrokerWire

/// An app's session with the broker: one connection, opened with Hello under the app's id and token.
///
/// Safe to use from any thread or task; calls run concurrently over the one connection. Releasing
/// the store (and any streams it started) closes the connection.
///
/// When the connection ends (EOF, a broker restart), every pending call and stream fails with
/// UNAVAILABLE; none is retried behind the app's back (saves are idempotent by uuid, so the app can
/// retry them). With a `ReconnectPolicy` the store then reconnects in the background and replays
/// Hello; see `connect(socketPath:appID:appToken:reconnect:)`.
public final class HealthStore: Sendable {
    /// How long `connect` (and each reconnection) waits for Hello's answer.
    static let helloTimeout: Duration = .seconds(10)

    /// The underlying connection (tests reach the low-level API through it).
    package let connection: BrokerConnection
    private let currentSession: Locked<SessionInfo>
    /// The last EarliestAuthorizedSampleDate answer, handed back while the broker's reply is the same.
    let sampleDatesCache = SampleDatesCache()

    private init(connection: BrokerConnection, session: Locked<SessionInfo>) {
        self.connection = connection
        self.currentSession = session
    }

    /// What the broker said at the last successful Hello (updated after each reconnection).
    public var session: SessionInfo { currentSession.withLock { $0 } }

    /// The app socket's default path: `$HEALTHBROKER_RUNTIME_DIR/app.sock`, else under
    /// `$XDG_RUNTIME_DIR/healthbroker`, else under `/tmp/healthbroker-<uid>`.
    public static var defaultSocketPath: String { DefaultPaths.appSocket }

    /// Connects to the broker's app socket and opens a session as `appID` with `appToken`.
    ///
    /// No broker listening is UNAVAILABLE; an unknown app or a wrong token is UNAUTHENTICATED. This
    /// first connection is never retried: it succeeds or throws.
    ///
    /// With `reconnect` set, a session that later drops is reopened in the background: pending calls
    /// fail with UNAVAILABLE as always, then the store reconnects with backoff and replays Hello with
    /// the same id and token. Meanwhile a call with a timeout waits for the reconnection up to that
    /// timeout (then UNAVAILABLE); a call without a timeout, and every stream without one, fails at
    /// once with UNAVAILABLE (calls with a built-in timeout, such as look-ups and deletes, wait up
    /// to it). A Hello refused after a reconnection (UNAUTHENTICATED: the token was rotated or the
    /// app removed) stops reconnecting, and every later call fails with that error.
    /// `reconnect` nil: once the connection ends, every later call fails with UNAVAILABLE.
    public static func connect(socketPath: String = defaultSocketPath, appID: String, appToken: String, reconnect: ReconnectPolicy? = nil) async throws(BrokerError) -> HealthStore {
        try await connect(socketPath: socketPath, appID: appID, appToken: appToken, reconnect: reconnect, timing: .live)
    }

    /// `connect(socketPath:appID:appToken:reconnect:)` with the reconnect loop's waits and jitter
    /// injected (tests).
    package static func connect(socketPath: String, appID: String, appToken: String, reconnect: ReconnectPolicy?, timing: ReconnectTiming) async throws(BrokerError) -> HealthStore {
        let hello = HelloRequest(appID: appID, appToken: appToken, protocolVersion: BrokerVersion.protocolVersion)
        let core = try ConnectionCore.connect(socketPath: socketPath)
        let first: SessionInfo
        do {
            first = try await openSession(hello, on: core)
        } catch {
            core.close(reason: "closed by the client")
            throw error
        }
        let session = Locked(first)
        let reconnection = reconnect.map { policy in
            Reconnection(policy: policy, timing: timing) { (core: ConnectionCore) async throws(BrokerError) in
                let reopened = try await openSession(hello, on: core)
                session.withLock { $0 = reopened }
            }
        }
        return HealthStore(connection: BrokerConnection(core: core, reconnection: reconnection), session: session)
    }

    /// Closes the session for good; calls in flight fail with UNAVAILABLE, and so does every later
    /// call. Stops reconnecting.
    public func close() {
        connection.close()
    }

    /// Sends Hello on `core` (a fresh connection no call has used) and returns what the broker said.
    private static func openSession(_ hello: HelloRequest, on core: ConnectionCore) async throws(BrokerError) -> SessionInfo {
        if Task.isCancelled { throw .callCancelled }
        let id = try await core.startUnary(.hello(hello.proto), timeout: helloTimeout).id
        switch await core.awaitUnary(id) {
        case .response(.hello(let answer)): return SessionInfo(HelloResponse(proto: answer))
        case .failure(let error): throw error
        case .response, .item, .end: throw .unexpectedResponse("Hello")
        }
    }
}
