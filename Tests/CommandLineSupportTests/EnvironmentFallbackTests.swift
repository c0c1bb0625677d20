import CommandLineSupport
import Testing

@Suite struct EnvironmentFallbackTests {
    private let environment = [
        "HEALTHBROKER_APP_TOKEN": "from-env",
        "HEALTHBROKER_APP_SOCKET": "/env/app.sock",
    ]

    @Test func commandLineBeatsEnvironment() throws {
        let command = try parse(["--token", "from-flag", "app"], environment: environment)
        #expect(command.string("token") == "from-flag")
        #expect(command.source(of: "token") == .commandLine)
    }

    @Test func environmentBeatsDefault() throws {
        let command = try parse(["app"], environment: environment)
        #expect(command.string("token") == "from-env")
        #expect(command.source(of: "token") == .environment("HEALTHBROKER_APP_TOKEN"))
        #expect(command.string("socket") == "/env/app.sock")
    }

    @Test func defaultAppliesLast() throws {
        let command = try parse(["app"], environment: [:])
        #expect(command.string("token") == "dev-token")
        #expect(command.source(of: "token") == .defaultValue)
        #expect(command.string("clients") == "4")
    }

    @Test func emptyEnvironmentValueCountsAsUnset() throws {
        let command = try parse(["app"], environment: ["HEALTHBROKER_APP_TOKEN": ""])
        #expect(command.string("token") == "dev-token")
    }

    @Test func optionWithoutDefaultOrEnvironmentIsNil() throws {
        let command = try parse(["app"], environment: environment)
        #expect(command.string("format") == nil)
        #expect(command.source(of: "format") == nil)
    }

    @Test(arguments: ["1", "true", "YES", "on"])
    func truthyEnvironmentTurnsAFlagOn(value: String) throws {
        let command = try parse(["app"], environment: ["HEALTHBROKER_VERBOSE": value])
        #expect(command.flag("verbose"))
        #expect(command.source(of: "verbose") == .environment("HEALTHBROKER_VERBOSE"))
    }

    @Test(arguments: ["0", "false", "no", "off", ""])
    func falsyEnvironmentLeavesAFlagOff(value: String) throws {
        let command = try parse(["app"], environment: ["HEALTHBROKER_VERBOSE": value])
        #expect(!command.flag("verbose"))
    }

    @Test func inheritedOptionFallsBackInSubcommands() throws {
        let command = try parse(
            ["apps", "list"], Fixtures.healthctl, environment: ["HEALTHBROKER_ADMIN_SOCKET": "/env/admin.sock"])
        #expect(command.string("socket") == "/env/admin.sock")
    }
}
