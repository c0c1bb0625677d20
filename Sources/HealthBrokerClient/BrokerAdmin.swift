import BrokerModel
import BrokerSupport
import BrokerWire

/// An admin session over the broker's admin socket (mode 0600: same user as the broker).
///
/// Safe to use from any thread or task. Releasing it closes the connection.
public final class BrokerAdmin: Sendable {
    /// How long an admin call may take before the client gives up.
    static let callTimeout: Duration = .seconds(30)

    /// The underlying connection (tests reach the low-level API through it).
    package let connection: BrokerConnection

    private init(connection: BrokerConnection) {
        self.connection = connection
    }

    /// The admin socket's default path: `$HEALTHBROKER_RUNTIME_DIR/admin.sock`, else under
    /// `$XDG_RUNTIME_DIR/healthbroker`, else under `/tmp/healthbroker-<uid>`.
    public static var defaultSocketPath: String { DefaultPaths.adminSocket }

    /// Connects to the admin socket; no Hello is needed there.
    ///
    /// No broker listening is UNAVAILABLE; a socket owned by another user is PERMISSION_DENIED.
    public static func connect(socketPath: String = defaultSocketPath) async throws(BrokerError) -> BrokerAdmin {
        BrokerAdmin(connection: try BrokerConnection.connect(socketPath: socketPath))
    }

    /// Closes the connection; calls in flight fail with UNAVAILABLE, and so does every later call.
    public func close() {
        connection.close()
    }
}
