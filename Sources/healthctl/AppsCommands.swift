import CommandLineSupport
import HealthBrokerClient

/// `healthctl apps add|list|remove|rotate-token`.
enum AppsCommands {
    /// Registers an app and prints it with its token.
    static func add(_ command: ParsedCommand, context: CommandContext) async throws {
        let tokenOnly = try tokenOnlyFlag(command, context: context)
        let registration = AppRegistration(
            appID: try appID(command),
            name: try command.requiredString("name"),
            readUsage: command.string("read-usage") ?? "",
            shareUsage: command.string("share-usage") ?? "",
            pinnedUID: try command.uint32("uid"))
        let credentials = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.addApp(registration)
        }
        printCredentials(credentials, tokenOnly: tokenOnly, context: context, event: .registered)
    }

    /// Prints the registry as a table or a JSON array.
    static func list(context: CommandContext) async throws {
        let apps = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.listApps()
        }
        Console.output(context.json ? JSONOutput.apps(apps) : TextOutput.appTable(apps, time: context.time))
    }

    /// Removes an app and says how many of its connections were closed.
    static func remove(_ command: ParsedCommand, context: CommandContext) async throws {
        let id = try appID(command)
        let deleteData = command.flag("delete-data")
        let closed = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.removeApp(id, deleteData: deleteData)
        }
        Console.output(
            context.json
                ? JSONOutput.removal(appID: id, connectionsClosed: closed)
                : TextOutput.removal(appID: id, connectionsClosed: closed))
    }

    /// Issues a new token for an app and prints it.
    static func rotateToken(_ command: ParsedCommand, context: CommandContext) async throws {
        let tokenOnly = try tokenOnlyFlag(command, context: context)
        let id = try appID(command)
        let credentials = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.rotateToken(id)
        }
        printCredentials(credentials, tokenOnly: tokenOnly, context: context, event: .rotated)
    }

    private static func printCredentials(
        _ credentials: AppCredentials, tokenOnly: Bool, context: CommandContext, event: TextOutput.TokenEvent
    ) {
        if tokenOnly {
            Console.output(credentials.token)
        } else if context.json {
            Console.output(JSONOutput.credentials(credentials))
        } else {
            Console.output(TextOutput.credentials(credentials, event: event, time: context.time))
        }
    }

    /// `--token-only`, refused together with `--json` (which already carries the token).
    private static func tokenOnlyFlag(_ command: ParsedCommand, context: CommandContext) throws(ArgumentError) -> Bool {
        let tokenOnly = command.flag("token-only")
        if tokenOnly && context.json {
            throw ArgumentError(
                .unexpectedValue, "--token-only and --json cannot be used together", command: command.commandName)
        }
        return tokenOnly
    }

    private static func appID(_ command: ParsedCommand) throws(ArgumentError) -> String {
        guard let id = command.positional("APP_ID") else {
            throw ArgumentError(.missingArgument, "missing required argument 'APP_ID'", command: command.commandName)
        }
        return id
    }
}
