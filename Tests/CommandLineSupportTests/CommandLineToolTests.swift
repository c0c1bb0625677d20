@testable import CommandLineSupport
import Testing

@Suite struct CommandLineToolTests {
    @Test func helpGoesToStandardOutputWithStatusZero() {
        let step = CommandLineTool.prepare(spec: Fixtures.healthctl, arguments: ["apps", "--help"], environment: [:])
        guard case .exit(let ending) = step else {
            Issue.record("expected an exit, got \(step)")
            return
        }
        #expect(ending.code == 0)
        #expect(ending.standardOutput.hasPrefix("USAGE: healthctl apps [OPTIONS] SUBCOMMAND"))
        #expect(ending.standardError.isEmpty)
    }

    @Test func usageErrorGoesToStandardErrorWithStatus64() {
        let step = CommandLineTool.prepare(
            spec: Fixtures.healthctl, arguments: ["apps", "add", "--sockt", "x"], environment: [:])
        #expect(
            step
                == .exit(
                    .init(
                        code: 64,
                        standardError:
                            "error: unknown option '--sockt'; did you mean '--socket'? (see 'healthctl apps add --help')\n"
                    )))
    }

    @Test func validCommandLineRunsTheBody() throws {
        let step = CommandLineTool.prepare(
            spec: Fixtures.healthctl, arguments: ["apps", "add", "x"],
            environment: ["HEALTHBROKER_ADMIN_SOCKET": "/env.sock"])
        guard case .run(let command) = step else {
            Issue.record("expected a command, got \(step)")
            return
        }
        #expect(command.path == ["apps", "add"])
        #expect(command.string("socket") == "/env.sock")
    }

    @Test func argumentErrorFromTheBodyIsAUsageError() throws {
        let command = try parse(["--clients", "lots", "app"])
        let error = #expect(throws: ArgumentError.self) { try command.int("clients") }
        let ending = CommandLineTool.ending(for: try #require(error))
        #expect(ending.code == CommandLineTool.usageExitCode)
        #expect(
            ending.standardError
                == "error: invalid value 'lots' for option '--clients': expected an integer (see 'healthload --help')\n")
    }

    @Test func otherErrorsFailWithStatusOne() {
        struct Boom: Error, CustomStringConvertible {
            var description: String { "connection refused" }
        }
        let ending = CommandLineTool.ending(for: Boom())
        #expect(ending == .init(code: 1, standardError: "error: connection refused\n"))
    }

    @Test func errorWithoutACommandHintsAtPlainHelp() {
        let ending = CommandLineTool.ending(for: ArgumentError(.invalidValue, "bad"))
        #expect(ending.standardError == "error: bad (see --help)\n")
    }
}

// Never called: these only prove that both `run` overloads type-check with their defaults,
// from synchronous and asynchronous contexts, in Swift 6 mode.
private func synchronousMainCompiles() {
    CommandLineTool.run(spec: Fixtures.healthctl) { command in
        _ = command.flag("json")
    }
}

private func asynchronousMainCompiles() async {
    await CommandLineTool.run(spec: Fixtures.healthctl) { command in
        try await Task.sleep(nanoseconds: 1)
        _ = try command.int("port")
    }
}
