import CommandLineSupport

/// Runs the parsed command: reads the global options, then hands over to the subcommand.
enum HealthctlCommand {
    /// Runs `command`; throws `ArgumentError` for a bad command line and `CommandFailure` for broker errors.
    static func run(_ command: ParsedCommand) async throws {
        let context = try CommandContext(command)
        switch command.path {
        case ["apps", "add"]: try await AppsCommands.add(command, context: context)
        case ["apps", "list"]: try await AppsCommands.list(context: context)
        case ["apps", "remove"]: try await AppsCommands.remove(command, context: context)
        case ["apps", "rotate-token"]: try await AppsCommands.rotateToken(command, context: context)
        case ["status"]: try await StatusCommand.run(context: context)
        case ["consent"]: try await ConsentCommand.run(command, context: context)
        case ["ui"]: try await UICommand.run(command, context: context)
        case ["grants"]: try await GrantsCommands.grants(command, context: context)
        case ["grants", "set"]: try await GrantsCommands.set(command, context: context)
        case ["grants", "turn-off"]: try await GrantsCommands.turnOff(command, context: context)
        case ["revoke"]: try await GrantsCommands.revoke(command, context: context)
        case ["sources"]: try await SourcesCommand.run(command, context: context)
        case ["sources", "priority"]: try await SourcesCommand.priority(command, context: context)
        case ["characteristics", "set"]: try await CharacteristicsCommands.set(command, context: context)
        case ["characteristics", "clear"]: try await CharacteristicsCommands.clear(command, context: context)
        case ["explain"]: try await GrantsCommands.explain(command, context: context)
        case ["types"]: TypesCommand.run(context: context)
        case ["import"]: try await ImportCommand.run(command, context: context)
        case ["export"]: try await ExportCommand.run(command, context: context)
        case ["backup"]: try await BackupCommand.run(command, context: context)
        case ["access-log"]: try await AccessLogCommand.run(command, context: context)
        case ["stats"]: try await StatsCommand.run(command, context: context)
        case ["call"]: try await CallCommand.run(command, context: context)
        case ["describe"]: try DescribeCommand.run(command)
        case ["demo-data"]: try await DemoDataCommand.run(command, context: context)
        default: preconditionFailure("no handler for '\(command.commandName)'")
        }
    }
}
