import HealthBrokerClient

/// `healthctl sources`.
enum SourcesCommand {
    /// Prints every app that ever asked, as a table or a JSON array.
    static func run(context: CommandContext) async throws {
        let sources = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.sources()
        }
        Console.output(context.json ? JSONOutput.sources(sources) : TextOutput.sourceTable(sources))
    }
}
