import BrokerCore
import BrokerWire

/// An app's session with the broker: one connection, opened with Hello under the app's id and token.
///
/// Safe to use from any thread or task; calls run concurrently over the one connection. Releasing
/// the store (and any streams it started) closes the connection.
public final class HealthStore: Sendable {
    /// How long `connect` waits for Hello's answer.
    static let helloTimeout: Duration = .seconds(10)

    /// The underlying connection (tests reach the low-level API through it).
    package let connection: BrokerConnection
    /// What the broker said at Hello.
    public let session: SessionInfo

    private init(connection: BrokerConnection, session: SessionInfo) {
        self.connection = connection
        self.session = session
    }

    /// Connects to the broker's app socket and opens a session as `appID` with `appToken`.
    ///
    /// No broker listening is UNAVAILABLE; an unknown app or a wrong token is UNAUTHENTICATED.
    public static func connect(socketPath: String = DefaultPaths.appSocket, appID: String, appToken: String) async throws(BrokerError) -> HealthStore {
        let connection = try BrokerConnection.connect(socketPath: socketPath)
        let hello = HelloRequest(appID: appID, appToken: appToken, protocolVersion: BrokerVersion.protocolVersion)
        do {
            let response = try await connection.unary(.hello(hello), timeout: helloTimeout) { response in
                if case .hello(let answer) = response { answer } else { nil }
            }
            return HealthStore(connection: connection, session: SessionInfo(response))
        } catch {
            connection.close()
            throw error
        }
    }

    /// Closes the session; calls in flight fail with UNAVAILABLE, and so does every later call.
    public func close() {
        connection.close()
    }
}
