@testable import CommandLineSupport
import Testing

/// `--version`: built in for a program that declares its version; like `--help`, it ends parsing where it stands.
@Suite struct VersionTests {
    static var versioned: CommandSpec {
        var spec = Fixtures.healthctl
        spec.version = "1.2.3"
        return spec
    }

    @Test func versionPrintsNameAndVersionWithStatusZero() {
        for arguments in [["--version"], ["apps", "--version"], ["apps", "add", "--version"], ["apps", "--version", "--sockt"]] {
            let step = CommandLineTool.prepare(spec: Self.versioned, arguments: arguments, environment: [:])
            #expect(step == .exit(.init(code: 0, standardOutput: "healthctl 1.2.3\n")), "\(arguments)")
        }
    }

    @Test func versionAfterTheEndOfOptionsIsAnArgument() throws {
        let outcome = try ArgumentParser.parse(["apps", "add", "--", "--version"], spec: Self.versioned, environment: [:])
        #expect(outcome.command?.positional("APP_ID") == "--version")
    }

    @Test func withoutADeclaredVersionItIsAnUnknownOption() {
        let step = CommandLineTool.prepare(spec: Fixtures.healthctl, arguments: ["--version"], environment: [:])
        guard case .exit(let ending) = step else {
            Issue.record("expected an exit, got \(step)")
            return
        }
        #expect(ending.code == 64)
        #expect(ending.standardError.contains("unknown option '--version'"))
    }

    @Test func helpListsItAndASpecMayNotDeclareItAgain() {
        #expect(ArgumentParser.helpText(for: Self.versioned).contains("--version"))
        #expect(!ArgumentParser.helpText(for: Fixtures.healthctl).contains("--version"))
        var clashing = Self.versioned
        clashing.options.append(.flag("version", help: "Mine."))
        #expect(clashing.validationProblems().contains { $0.contains("'--version' is built in") })
        #expect(Fixtures.healthctl.validationProblems().isEmpty)
    }
}
