import BrokerModel
import HealthBrokerClient

/// The admin connection the page's calls go through: opened on first use, opened again after the
/// broker went away (a call that finds it gone is retried once on a fresh connection).
actor UIAdminLink {
    private let socket: String
    private var admin: BrokerAdmin?

    init(socket: String) {
        self.socket = socket
    }

    /// Runs `body` on the connection.
    func call<T: Sendable>(_ body: @Sendable (BrokerAdmin) async throws(BrokerError) -> T) async throws(BrokerError) -> T {
        for attempt in 0..<2 {
            let current: BrokerAdmin
            if let admin { current = admin } else {
                current = try await BrokerAdmin.connect(socketPath: socket)
                admin = current
            }
            do {
                return try await body(current)
            } catch where error.code == .unavailable && attempt == 0 {
                current.close()
                admin = nil
            }
        }
        throw BrokerError(code: .unavailable, message: "the broker is not reachable at \(socket)")
    }
}
