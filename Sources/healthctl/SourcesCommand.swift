import CommandLineSupport
import HealthBrokerClient

/// `healthctl sources`.
enum SourcesCommand {
    /// Prints every app that ever asked or has samples, as a table or a JSON array; with `--type`,
    /// only those with samples of that type.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let type = try command.string("type").map { try TypeArgument.resolve($0, command: command.commandName) }
        var sources = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.sources()
        }
        if let type { sources = sources.filter { $0.sampleCounts[type, default: 0] > 0 } }
        Console.output(context.json ? JSONOutput.sources(sources) : TextOutput.sourceTable(sources, type: type, time: context.time))
    }

    /// `sources priority TYPE [APP_ID...]`: sets the order when APP_IDs (or --clear) are given, then
    /// prints the order the broker holds.
    static func priority(_ command: ParsedCommand, context: CommandContext) async throws {
        let type = try TypeArgument.resolve(command.positional("TYPE") ?? "", command: command.commandName)
        let appIDs = command.positionals("APP_ID")
        let clear = command.flag("clear")
        if clear, !appIDs.isEmpty {
            throw ArgumentError(.unexpectedArgument, "--clear takes no APP_ID", command: command.commandName)
        }
        let order = try await context.withAdmin { admin throws(BrokerError) in
            if clear || !appIDs.isEmpty { try await admin.setSourcePriority(appIDs, for: type) }
            return try await admin.sourcePriority(for: type)
        }
        Console.output(context.json ? JSONOutput.sourcePriority(type: type, appIDs: order) : TextOutput.sourcePriority(type: type, appIDs: order))
    }
}
