import CommandLineSupport
import Testing

@Suite struct OptionParsingTests {
    @Test func longOptionWithSeparateValue() throws {
        let command = try parse(["--socket", "/run/a.sock", "com.example.app"])
        #expect(command.string("socket") == "/run/a.sock")
        #expect(command.source(of: "socket") == .commandLine)
    }

    @Test func longOptionWithEqualsValue() throws {
        let command = try parse(["--socket=/run/b.sock", "com.example.app"])
        #expect(command.string("socket") == "/run/b.sock")
    }

    @Test func equalsValueMayContainEqualsAndStartWithDash() throws {
        let command = try parse(["--format=a=b", "--offset=-7", "--token=", "app"])
        #expect(command.string("format") == "a=b")
        #expect(command.string("offset") == "-7")
        #expect(command.string("token") == "")
    }

    @Test func shortOptionTakesNextWord() throws {
        let command = try parse(["-s", "/run/c.sock", "-c", "8", "app"])
        #expect(command.string("socket") == "/run/c.sock")
        #expect(command.string("clients") == "8")
    }

    @Test func booleanFlagsLongAndShort() throws {
        let command = try parse(["--json", "-v", "app"])
        #expect(command.flag("json"))
        #expect(command.flag("verbose"))
        #expect(!command.flag("quiet"))
        #expect(command.source(of: "quiet") == nil)
    }

    @Test func clusteredShortFlagsWithTrailingValueOption() throws {
        let command = try parse(["-jvs", "/run/d.sock", "app"])
        #expect(command.flag("json"))
        #expect(command.flag("verbose"))
        #expect(command.string("socket") == "/run/d.sock")
    }

    @Test func repeatedFlagsAreCounted() throws {
        let command = try parse(["-v", "--verbose", "-vv", "app"])
        #expect(command.count("verbose") == 4)
        #expect(command.count("quiet") == 0)
    }

    @Test func repeatableOptionCollectsEveryValueInOrder() throws {
        let command = try parse(["--type", "heartRate", "app", "-t", "steps", "--type=bodyMass"])
        #expect(command.strings("type") == ["heartRate", "steps", "bodyMass"])
        #expect(command.string("type") == "bodyMass")
    }

    @Test func absentRepeatableOptionIsEmpty() throws {
        let command = try parse(["app"])
        #expect(command.strings("type") == [])
        #expect(command.string("type") == nil)
    }

    @Test func nonRepeatableOptionKeepsTheLastValue() throws {
        let command = try parse(["--socket", "/first", "app", "--socket", "/second"])
        #expect(command.string("socket") == "/second")
        #expect(command.strings("socket") == ["/second"])
    }

    @Test func optionsMayFollowPositionals() throws {
        let command = try parse(["app", "one.json", "--json", "two.json", "--clients", "2"])
        #expect(command.positionals == ["app", "one.json", "two.json"])
        #expect(command.flag("json"))
        #expect(command.string("clients") == "2")
    }

    @Test func doubleDashEndsOptions() throws {
        let command = try parse(["--json", "--", "--verbose", "-s", "--"])
        #expect(command.flag("json"))
        #expect(!command.flag("verbose"))
        #expect(command.string("socket") == "/tmp/hb/app.sock")
        #expect(command.positionals == ["--verbose", "-s", "--"])
    }

    @Test func helpAfterDoubleDashIsAPositional() throws {
        let command = try parse(["--", "--help", "-h"])
        #expect(command.positionals == ["--help", "-h"])
    }

    @Test func negativeNumbersAndLoneDashAreValuesAndPositionals() throws {
        let command = try parse(["--offset", "-30", "--rate", "-.5", "-5", "-"])
        #expect(command.string("offset") == "-30")
        #expect(command.string("rate") == "-.5")
        #expect(command.positionals == ["-5", "-"])
    }

    @Test func lookupsAcceptLeadingDashes() throws {
        let command = try parse(["--socket", "/x", "--json", "app"])
        #expect(command.string("--socket") == "/x")
        #expect(command.flag("--json"))
    }
}
