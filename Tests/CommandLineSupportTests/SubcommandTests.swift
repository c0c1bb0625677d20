import CommandLineSupport
import Testing

@Suite struct SubcommandTests {
    @Test func nestedSubcommandPathIsResolved() throws {
        let command = try parse(["apps", "add", "com.example.app"], Fixtures.healthctl)
        #expect(command.path == ["apps", "add"])
        #expect(command.commandName == "healthctl apps add")
        #expect(command.positional("APP_ID") == "com.example.app")
    }

    @Test func singleLevelSubcommand() throws {
        let command = try parse(["status"], Fixtures.healthctl)
        #expect(command.path == ["status"])
        #expect(command.positionals.isEmpty)
    }

    @Test func parentOptionsWorkBeforeAndAfterTheSubcommand() throws {
        let before = try parse(["--socket", "/a", "--json", "apps", "remove", "x"], Fixtures.healthctl)
        #expect(before.string("socket") == "/a")
        #expect(before.flag("json"))
        #expect(before.path == ["apps", "remove"])

        let after = try parse(["apps", "add", "x", "-s", "/b", "--name", "Example"], Fixtures.healthctl)
        #expect(after.string("socket") == "/b")
        #expect(after.string("name") == "Example")
        #expect(!after.flag("json"))
    }

    @Test func subcommandOptionIsUnknownBeforeTheSubcommand() throws {
        let error = try parseError(["--name", "Example", "apps", "add", "x"], Fixtures.healthctl)
        #expect(error.kind == .unknownOption)
        #expect(error.command == "healthctl")
    }

    @Test func unknownSubcommandListsTheValidOnes() throws {
        let error = try parseError(["apps", "delete", "x"], Fixtures.healthctl)
        #expect(error.kind == .unknownSubcommand)
        #expect(error.message == "unknown subcommand 'delete' for 'healthctl apps' (valid subcommands: add, list, remove)")
        #expect(error.command == "healthctl apps")
    }

    @Test func unknownSubcommandSuggestsACloseOne() throws {
        let error = try parseError(["apps", "ad", "x"], Fixtures.healthctl)
        #expect(error.message.contains("did you mean 'add'?"))
        #expect(error.message.contains("valid subcommands: add, list, remove"))

        let top = try parseError(["stats"], Fixtures.healthctl)
        #expect(top.message.contains("did you mean 'status'?"))
        #expect(top.message.contains("valid subcommands: apps, status"))
    }

    @Test func missingSubcommandListsTheValidOnes() throws {
        let error = try parseError(["apps"], Fixtures.healthctl)
        #expect(error.kind == .missingSubcommand)
        #expect(error.message == "'healthctl apps' needs a subcommand: add, list, remove")

        let top = try parseError([], Fixtures.healthctl)
        #expect(top.message == "'healthctl' needs a subcommand: apps, status")
    }

    @Test func doubleDashStillLetsAWordPickTheSubcommand() throws {
        let command = try parse(["apps", "remove", "--", "-weird-id"], Fixtures.healthctl)
        #expect(command.path == ["apps", "remove"])
        #expect(command.positional("APP_ID") == "-weird-id")
    }
}
