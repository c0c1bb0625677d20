import CommandLineSupport
import Testing

/// A command with both subcommands and (optional) arguments of its own, as `healthctl grants APP_ID`
/// beside `healthctl grants set …`.
@Suite struct SubcommandWithArgumentsTests {
    static let spec = CommandSpec(
        "tool", summary: "A tool.",
        subcommands: [
            CommandSpec(
                "grants", summary: "Show grants.",
                options: [.option("type", value: "TYPE", help: "One type across apps.")],
                positionals: [PositionalSpec("APP_ID", help: "The app.", optional: true)],
                subcommands: [
                    CommandSpec(
                        "set", summary: "Set a grant.",
                        positionals: [PositionalSpec("APP_ID", help: "The app."), PositionalSpec("TYPE", help: "The type.")]),
                ]),
        ])

    @Test func theSpecIsValid() {
        #expect(Self.spec.validationProblems() == [])
    }

    @Test func aWordNamingASubcommandPicksIt() throws {
        let command = try parse(["grants", "set", "com.example.app", "stepCount"], Self.spec)
        #expect(command.path == ["grants", "set"])
        #expect(command.positional("APP_ID") == "com.example.app")
        #expect(command.positional("TYPE") == "stepCount")
    }

    @Test func anyOtherWordIsTheCommandsOwnArgument() throws {
        let command = try parse(["grants", "com.example.app"], Self.spec)
        #expect(command.path == ["grants"])
        #expect(command.positional("APP_ID") == "com.example.app")
    }

    @Test func noWordRunsTheCommandItself() throws {
        let command = try parse(["grants", "--type", "stepCount"], Self.spec)
        #expect(command.path == ["grants"])
        #expect(command.positional("APP_ID") == nil)
        #expect(command.string("type") == "stepCount")
    }

    @Test func afterDoubleDashASubcommandNameIsAnArgument() throws {
        let command = try parse(["grants", "--", "set"], Self.spec)
        #expect(command.path == ["grants"])
        #expect(command.positional("APP_ID") == "set")
    }

    @Test func aSecondWordIsNotTakenAsASubcommand() throws {
        let error = try parseError(["grants", "com.example.app", "set"], Self.spec)
        #expect(error.kind == .unexpectedArgument)
    }

    @Test func theUsageLineShowsBothShapes() throws {
        let text = try help(["grants", "--help"], Self.spec)
        #expect(text.hasPrefix("USAGE: tool grants [OPTIONS] [SUBCOMMAND | [APP_ID]]"))
        #expect(text.contains("SUBCOMMANDS:"))
        #expect(text.contains("ARGUMENTS:"))
    }

    @Test func requiredArgumentsBesideSubcommandsAreRefused() {
        let spec = CommandSpec(
            "bad", summary: "Broken.",
            positionals: [PositionalSpec("NEEDED", help: "Required.")],
            subcommands: [CommandSpec("sub", summary: "A subcommand.")])
        #expect(spec.validationProblems().joined().contains("can take only optional positional arguments"))
    }
}
