import CommandLineSupport
import HealthBrokerClient

/// `healthctl grants|revoke|explain`: what an app was granted, forgetting it, and why it sees what it sees.
enum GrantsCommands {
    /// Prints an app's grants as a table or a JSON array.
    static func grants(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try required(command, "APP_ID")
        let grants = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.grants(for: appID)
        }
        Console.output(context.json ? JSONOutput.grants(grants) : TextOutput.grantTable(appID: appID, grants: grants))
    }

    /// Revokes an app's grants for the named types (none: all) and prints how many went.
    static func revoke(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try required(command, "APP_ID")
        let types = try TypeArgument.resolveAll(command.positionals("TYPE"), command: command.commandName)
        let revoked = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.revoke(appID: appID, types: types)
        }
        Console.output(
            context.json
                ? JSONOutput.revocation(appID: appID, types: types, revoked: revoked)
                : TextOutput.revocation(appID: appID, types: types, revoked: revoked))
    }

    /// Prints the broker's explanation of one app's access to one type, with the grant's fields.
    static func explain(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try required(command, "APP_ID")
        let type = try TypeArgument.resolve(try required(command, "TYPE"), command: command.commandName)
        let explanation = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.explain(appID: appID, type: type)
        }
        Console.output(
            context.json
                ? JSONOutput.explanation(appID: appID, type: type, explanation)
                : TextOutput.explanation(appID: appID, type: type, explanation))
    }

    /// The positional argument `name`; the parser already requires it, so absence is a usage error only in theory.
    static func required(_ command: ParsedCommand, _ name: String) throws(ArgumentError) -> String {
        guard let value = command.positional(name) else {
            throw ArgumentError(.missingArgument, "missing required argument '\(name)'", command: command.commandName)
        }
        return value
    }
}
