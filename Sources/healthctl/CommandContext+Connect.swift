import HealthBrokerClient

extension CommandContext {
    /// Opens the admin connection for a command that makes many calls; the caller closes it.
    func connectAdmin() async throws(CommandFailure) -> BrokerAdmin {
        do {
            return try await BrokerAdmin.connect(socketPath: adminSocket)
        } catch {
            throw CommandFailure(connecting: error, socket: adminSocket)
        }
    }
}
