import CommandLineSupport
import Testing

@Suite struct HelpTextTests {
    @Test func topLevelHelpListsOptionsAndSubcommands() throws {
        let text = try help(["--help"])
        #expect(text == """
            USAGE: healthctl [OPTIONS] SUBCOMMAND

            Administer a HealthBroker daemon.

            OPTIONS:
              -s, --socket PATH  The admin socket. (default: /tmp/hb/admin.sock)
                                 (env: HEALTHBROKER_ADMIN_SOCKET)
                  --json         Print JSON instead of text.
              -h, --help         Show this help.

            SUBCOMMANDS:
              apps               Manage registered apps.
              status             Show the daemon's status.

            See 'healthctl SUBCOMMAND --help' for help on a subcommand.

            """)
    }

    @Test func shortHelpFlagGivesTheSameText() throws {
        #expect(try help(["-h"]) == help(["--help"]))
    }

    @Test func intermediateLevelHelpListsItsSubcommands() throws {
        let text = try help(["apps", "--help"])
        #expect(text.hasPrefix("USAGE: healthctl apps [OPTIONS] SUBCOMMAND\n\nManage registered apps.\n"))
        #expect(text.contains("  add                Register an app and print its token.\n"))
        #expect(text.contains("  list               List registered apps.\n"))
        #expect(text.contains("  remove             Remove an app and revoke its token.\n"))
        #expect(text.contains("--socket PATH"))
        #expect(text.contains("See 'healthctl apps SUBCOMMAND --help'"))
    }

    @Test func leafHelpShowsArgumentsOwnAndInheritedOptions() throws {
        let text = try help(["--json", "apps", "add", "-h"])
        #expect(text == """
            USAGE: healthctl apps add [OPTIONS] APP_ID

            Register an app and print its token.

            ARGUMENTS:
              APP_ID             The app's reverse-DNS identifier.

            OPTIONS:
              -n, --name NAME    A display name.
              -s, --socket PATH  The admin socket. (default: /tmp/hb/admin.sock)
                                 (env: HEALTHBROKER_ADMIN_SOCKET)
                  --json         Print JSON instead of text.
              -h, --help         Show this help.

            """)
        #expect(!text.contains("SUBCOMMANDS:"))
    }

    @Test func helpWinsOverMissingArgumentsAndLaterMistakes() throws {
        let text = try help(["apps", "add", "--help", "--bogus"])
        #expect(text.hasPrefix("USAGE: healthctl apps add"))
        #expect(try help(["-vh"], Fixtures.load).hasPrefix("USAGE: healthload"))
    }

    @Test func flatToolHelpShowsPlaceholdersDefaultsEnvironmentAndDiscussion() throws {
        let text = try help(["--help"], Fixtures.load)
        #expect(text.hasPrefix("USAGE: healthload [OPTIONS] APP_ID [FILE...]\n"))
        #expect(text.contains("\nStarts CLIENTS concurrent app connections"))
        #expect(text.contains("  [FILE...]             Sample files to replay.\n"))
        #expect(text.contains("  -t, --type TYPE       A sample type to write. (repeatable)\n"))
        #expect(text.contains("  -c, --clients N       Concurrent clients. (default: 4)\n"))
        #expect(text.contains("      --limit N         Maximum samples. (env: HEALTHLOAD_LIMIT)\n"))
        #expect(text.contains("  -v, --verbose         Say more. (env: HEALTHBROKER_VERBOSE)\n"))
    }

    @Test func everyLineFitsEightyColumnsAndHasNoTrailingSpaces() throws {
        for text in [try help(["--help"]), try help(["apps", "add", "--help"]), try help(["-h"], Fixtures.load)] {
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(line)")
                #expect(line.last != " ", "\(line)")
            }
        }
    }

    @Test func longHelpWrapsUnderItsColumnAndLongLabelsGetTheirOwnLine() throws {
        let spec = CommandSpec(
            "tool", summary: "Do things.",
            options: [
                .option(
                    "a-really-long-option-name", value: "SOME_PLACEHOLDER",
                    help: "This option has a label wider than the label column allows."),
                .flag(
                    "wordy", help: String(repeating: "lorem ipsum ", count: 12).trimmingSuffixSpaces()),
            ])
        let text = try help(["--help"], spec)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let labelLine = try #require(lines.firstIndex(of: "      --a-really-long-option-name SOME_PLACEHOLDER"))
        #expect(lines[labelLine + 1].hasPrefix(String(repeating: " ", count: 32) + "This option"))
        let wordy = try #require(lines.firstIndex { $0.hasPrefix("      --wordy") })
        #expect(lines[wordy].count <= 80)
        #expect(lines[wordy + 1].hasPrefix(String(repeating: " ", count: 32) + "lorem"))
    }

    @Test func helpTextForAPathMatchesTheParsedHelp() throws {
        #expect(try ArgumentParser.helpText(for: Fixtures.healthctl, path: ["apps", "add"]) == help(["apps", "add", "-h"]))
        #expect(try ArgumentParser.helpText(for: Fixtures.healthctl) == help(["-h"]))
    }

    @Test func helpGivenAValueIsAnError() throws {
        let error = try parseError(["--help=yes"], Fixtures.healthctl)
        #expect(error.kind == .unexpectedValue)
    }
}

extension String {
    /// `self` without trailing spaces.
    fileprivate func trimmingSuffixSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
