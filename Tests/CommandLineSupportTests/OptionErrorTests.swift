import CommandLineSupport
import Testing

@Suite struct OptionErrorTests {
    @Test func unknownOptionSuggestsTheClosestKnownOne() throws {
        let error = try parseError(["--sokcet", "/x", "app"])
        #expect(error.kind == .unknownOption)
        #expect(error.message == "unknown option '--sokcet'; did you mean '--socket'?")
        #expect(error.description == error.message)
        #expect(error.helpHint == "(see 'healthload --help')")
    }

    @Test func misspelledOptionWithEqualsValueStillGetsASuggestion() throws {
        let error = try parseError(["--tokn=abc", "app"])
        #expect(error.message == "unknown option '--tokn'; did you mean '--token'?")
    }

    @Test func unknownOptionFarFromAnyNameHasNoSuggestion() throws {
        let error = try parseError(["--frobnicate", "app"])
        #expect(error.message == "unknown option '--frobnicate'")
    }

    @Test func misspelledInheritedOptionIsSuggestedInASubcommand() throws {
        let error = try parseError(["apps", "add", "x", "--sockt", "/y"], Fixtures.healthctl)
        #expect(error.message == "unknown option '--sockt'; did you mean '--socket'?")
        #expect(error.command == "healthctl apps add")
    }

    @Test func unknownShortOption() throws {
        let error = try parseError(["-x", "app"])
        #expect(error.kind == .unknownOption)
        #expect(error.message == "unknown option '-x'")

        let clustered = try parseError(["-vxq", "app"])
        #expect(clustered.message == "unknown option '-x' in '-vxq'")
    }

    @Test func singleDashLongNameSuggestsTheDoubleDashSpelling() throws {
        let error = try parseError(["-socket", "/x", "app"])
        #expect(error.kind == .unknownOption)
        #expect(error.message == "unknown option '-socket'; did you mean '--socket'?")
    }

    @Test func missingValueAtTheEnd() throws {
        let error = try parseError(["app", "--socket"])
        #expect(error.kind == .missingValue)
        #expect(error.message == "missing value for option '--socket' (expected PATH)")
    }

    @Test func missingValueBeforeAnotherOption() throws {
        let error = try parseError(["app", "-s", "--json"])
        #expect(error.kind == .missingValue)
        #expect(error.message.hasPrefix("missing value for option '-s' (expected PATH)"))
        #expect(error.message.contains("write --socket=PATH"))
    }

    @Test func valueOptionInsideAClusterMustComeLast() throws {
        let error = try parseError(["-sv", "/x", "app"])
        #expect(error.kind == .missingValue)
        #expect(error.message.contains("'-s' takes a value"))
    }

    @Test func flagGivenAValueWithEquals() throws {
        let error = try parseError(["--json=yes", "app"])
        #expect(error.kind == .unexpectedValue)
        #expect(error.message == "option '--json' is a flag and does not take a value")
    }

    @Test func firstErrorWinsOverALaterHelp() throws {
        let error = try parseError(["--bogus", "--help"])
        #expect(error.kind == .unknownOption)
    }
}
