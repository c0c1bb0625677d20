import CommandLineSupport
import HealthBrokerClient

/// `healthctl access-log [APP_ID] [--limit N] [--utc]`: who read or wrote what, when, through which call, how many samples.
enum AccessLogCommand {
    /// Prints the entries as a table or a JSON array.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = command.positional("APP_ID")
        let limit = try command.int("limit", in: 0...1_000_000) ?? 0
        let entries = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.accessLog(appID: appID, limit: limit)
        }
        Console.output(context.json ? JSONOutput.accessLog(entries) : TextOutput.accessLogTable(entries, appID: appID, time: context.time))
    }
}
