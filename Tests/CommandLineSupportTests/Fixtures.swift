import CommandLineSupport
import Testing

/// Specs shaped like the real tools, shared by the tests.
enum Fixtures {
    /// A flat tool with every kind of option and positional argument.
    static let load = CommandSpec(
        "healthload",
        summary: "Generate load against a running broker.",
        discussion: "Starts CLIENTS concurrent app connections that write and read samples until stopped.",
        options: [
            .option(
                "socket", short: "s", value: "PATH", help: "The app socket.", default: "/tmp/hb/app.sock",
                environment: "HEALTHBROKER_APP_SOCKET"),
            .option(
                "token", value: "TOKEN", help: "The app token.", default: "dev-token",
                environment: "HEALTHBROKER_APP_TOKEN"),
            .option("type", short: "t", value: "TYPE", help: "A sample type to write.", repeatable: true),
            .option("clients", short: "c", value: "N", help: "Concurrent clients.", default: "4"),
            .option("offset", value: "SECONDS", help: "Clock offset."),
            .option("rate", value: "HZ", help: "Samples per second per client."),
            .option("limit", value: "N", help: "Maximum samples.", environment: "HEALTHLOAD_LIMIT"),
            .option("anchor", value: "N", help: "Starting anchor."),
            .option("format", value: "FORMAT", help: "Output format."),
            .flag("json", short: "j", help: "Print JSON."),
            .flag("verbose", short: "v", help: "Say more.", environment: "HEALTHBROKER_VERBOSE"),
            .flag("quiet", short: "q", help: "Say less."),
        ],
        positionals: [
            PositionalSpec("APP_ID", help: "The app to act as."),
            PositionalSpec("FILE", help: "Sample files to replay.", optional: true, variadic: true),
        ])

    /// A tool with nested subcommands and an inherited option.
    static let healthctl = CommandSpec(
        "healthctl",
        summary: "Administer a HealthBroker daemon.",
        options: [
            .option(
                "socket", short: "s", value: "PATH", help: "The admin socket.", default: "/tmp/hb/admin.sock",
                environment: "HEALTHBROKER_ADMIN_SOCKET"),
            .flag("json", help: "Print JSON instead of text."),
        ],
        subcommands: [
            CommandSpec(
                "apps",
                summary: "Manage registered apps.",
                subcommands: [
                    CommandSpec(
                        "add",
                        summary: "Register an app and print its token.",
                        options: [.option("name", short: "n", value: "NAME", help: "A display name.")],
                        positionals: [PositionalSpec("APP_ID", help: "The app's reverse-DNS identifier.")]),
                    CommandSpec("list", summary: "List registered apps."),
                    CommandSpec(
                        "remove",
                        summary: "Remove an app and revoke its token.",
                        positionals: [PositionalSpec("APP_ID", help: "The app to remove.")]),
                ]),
            CommandSpec("status", summary: "Show the daemon's status."),
        ])

    /// The sample-format choices, for `choice(_:as:)`.
    enum Format: String, CaseIterable {
        case text, json
    }
}

/// Parses a command line that must succeed and must not ask for help.
func parse(
    _ arguments: [String], _ spec: CommandSpec = Fixtures.load, environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> ParsedCommand {
    let outcome = try ArgumentParser.parse(arguments, spec: spec, environment: environment)
    return try #require(outcome.command, sourceLocation: sourceLocation)
}

/// Parses a command line that must ask for help, returning the text.
func help(
    _ arguments: [String], _ spec: CommandSpec = Fixtures.healthctl,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let outcome = try ArgumentParser.parse(arguments, spec: spec, environment: [:])
    return try #require(outcome.helpText, sourceLocation: sourceLocation)
}

/// Parses a command line that must fail, returning the error.
func parseError(
    _ arguments: [String], _ spec: CommandSpec = Fixtures.load, environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> ArgumentError {
    let error = #expect(throws: ArgumentError.self, sourceLocation: sourceLocation) {
        try ArgumentParser.parse(arguments, spec: spec, environment: environment)
    }
    return try #require(error, sourceLocation: sourceLocation)
}
