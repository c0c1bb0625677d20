import HealthBrokerClient

/// `healthctl status`.
enum StatusCommand {
    /// Prints the broker's status as aligned lines or a JSON object.
    static func run(context: CommandContext) async throws {
        let info = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.brokerInfo()
        }
        Console.output(context.json ? JSONOutput.status(info) : TextOutput.status(info, time: context.time))
    }
}
