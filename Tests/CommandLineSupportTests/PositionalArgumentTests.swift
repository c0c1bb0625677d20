import CommandLineSupport
import Testing

@Suite struct PositionalArgumentTests {
    @Test func positionalsByIndexAndName() throws {
        let command = try parse(["com.example.app", "a.json", "b.json"])
        #expect(command.positional(0) == "com.example.app")
        #expect(command.positional(2) == "b.json")
        #expect(command.positional(3) == nil)
        #expect(command.positional("APP_ID") == "com.example.app")
        #expect(command.positional("FILE") == "a.json")
        #expect(command.positionals("FILE") == ["a.json", "b.json"])
        #expect(command.positionals("APP_ID") == ["com.example.app"])
    }

    @Test func optionalVariadicMayBeAbsent() throws {
        let command = try parse(["com.example.app"])
        #expect(command.positional("FILE") == nil)
        #expect(command.positionals("FILE") == [])
    }

    @Test func missingRequiredPositionalIsNamed() throws {
        let error = try parseError(["--json"])
        #expect(error.kind == .missingArgument)
        #expect(error.message == "missing required argument 'APP_ID'")
        #expect(error.command == "healthload")
    }

    @Test func extraPositionalIsRejected() throws {
        let error = try parseError(["apps", "add", "com.example.app", "surplus"], Fixtures.healthctl)
        #expect(error.kind == .unexpectedArgument)
        #expect(error.message == "unexpected argument 'surplus'; 'healthctl apps add' takes at most 1 argument")
        #expect(error.command == "healthctl apps add")
    }

    @Test func positionalForACommandWithoutArgumentsIsRejected() throws {
        let error = try parseError(["apps", "list", "everything"], Fixtures.healthctl)
        #expect(error.kind == .unexpectedArgument)
        #expect(error.message.contains("'healthctl apps list' takes no arguments"))
    }
}
