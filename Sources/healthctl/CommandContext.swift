import CommandLineSupport
import HealthBrokerClient

/// The global options every subcommand shares, and the admin connection they lead to.
struct CommandContext {
    /// The admin socket to connect to.
    let adminSocket: String
    /// Whether to print JSON instead of text.
    let json: Bool
    /// How text output writes instants: local time, or UTC with `--utc`.
    let time: TimeText

    /// Reads `--admin-socket`, `--json` and `--utc`.
    init(_ command: ParsedCommand) throws(ArgumentError) {
        adminSocket = try command.requiredString("admin-socket")
        json = command.flag("json")
        time = command.flag("utc") ? .universal : .local
    }

    /// Connects to the admin socket, runs `body`, closes the connection; broker errors become `CommandFailure`s.
    func withAdmin<T>(_ body: (BrokerAdmin) async throws(BrokerError) -> T) async throws(CommandFailure) -> T {
        let admin: BrokerAdmin
        do {
            admin = try await BrokerAdmin.connect(socketPath: adminSocket)
        } catch {
            throw CommandFailure(connecting: error, socket: adminSocket)
        }
        defer { admin.close() }
        do {
            return try await body(admin)
        } catch {
            throw CommandFailure(calling: error, socket: adminSocket)
        }
    }
}
