import CommandLineSupport
import Testing

@Suite struct SpecValidationTests {
    @Test func fixturesAreValid() {
        #expect(Fixtures.load.validationProblems() == [])
        #expect(Fixtures.healthctl.validationProblems() == [])
    }

    @Test func longNamesDropLeadingDashes() {
        #expect(OptionSpec.option("--socket", value: "PATH", help: "x").name == "socket")
        #expect(OptionSpec.flag("json", help: "x").displayName == "--json")
        #expect(OptionSpec.flag("json", help: "x").isFlag)
    }

    @Test func mistakesAreReported() {
        let spec = CommandSpec(
            "bad", summary: "Broken.",
            options: [
                .flag("help", help: "Clashes with the built-in."),
                .flag("json", short: "h", help: "Clashes with -h."),
                .flag("json", help: "Duplicate."),
                .option("count", short: "1", value: "N", help: "Digit short name."),
                OptionSpec("quiet", help: "A flag with a default.", default: "yes"),
            ],
            positionals: [
                PositionalSpec("REST", help: "Variadic but not last.", variadic: true),
                PositionalSpec("MAYBE", help: "Optional.", optional: true),
                PositionalSpec("NEEDED", help: "Required after optional."),
            ],
            subcommands: [
                CommandSpec("sub", summary: "Redeclares an inherited option.", options: [.flag("json", help: "Again.")]),
                CommandSpec("sub", summary: "Duplicate subcommand."),
            ])
        let problems = spec.validationProblems().joined(separator: "\n")
        #expect(problems.contains("'--help' is built in"))
        #expect(problems.contains("'-h' is built in"))
        #expect(problems.contains("'bad' option '--json': the name is already used"))
        #expect(problems.contains("'-1' cannot be a short name"))
        #expect(problems.contains("a flag cannot have a default"))
        #expect(problems.contains("only the last argument can be variadic"))
        #expect(problems.contains("a required argument cannot follow an optional one"))
        #expect(problems.contains("a command with subcommands can take only optional positional arguments"))
        #expect(problems.contains("'bad sub' option '--json': the name is already used"))
        #expect(problems.contains("subcommand 'sub': the name is already used"))
    }

    @Test func positionalUsageSpelling() {
        #expect(PositionalSpec("A", help: "").usage == "A")
        #expect(PositionalSpec("B", help: "", optional: true).usage == "[B]")
        #expect(PositionalSpec("C", help: "", variadic: true).usage == "C...")
        #expect(PositionalSpec("D", help: "", optional: true, variadic: true).usage == "[D...]")
    }
}
