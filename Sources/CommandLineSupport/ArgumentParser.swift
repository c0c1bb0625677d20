/// Turns a command line into a `ParsedCommand` (or help text) according to a `CommandSpec`.
///
/// Accepted syntax: `--name value`, `--name=value`, `-s value`, boolean `--flag` and `-f`, clustered
/// short flags (`-vq`, the last of which may take the next word as its value), `--` to end options,
/// and options before or after positional arguments. A word after an option that takes a value is
/// its value unless it looks like an option (negative numbers and a lone `-` are values); write
/// `--name=-value` for a value that starts with a dash. When an option taking a value is given twice
/// the last value wins, unless it is repeatable. `--help` or `-h` anywhere before `--` asks for help
/// on the command resolved so far.
public enum ArgumentParser {
    /// Parses `arguments` (without the program name) against `spec`, consulting `environment` for
    /// options absent from the command line. An empty environment value counts as unset.
    public static func parse(
        _ arguments: some Sequence<String>, spec: CommandSpec, environment: [String: String]
    ) throws(ArgumentError) -> ParseOutcome {
        let problems = spec.validationProblems()
        precondition(problems.isEmpty, "invalid CommandSpec: " + problems.joined(separator: "; "))
        var session = ParseSession(arguments: Array(arguments), root: spec, environment: environment)
        return try session.run()
    }

    /// Parses `arguments` against `spec`, consulting this process's environment.
    public static func parse(
        _ arguments: some Sequence<String>, spec: CommandSpec
    ) throws(ArgumentError) -> ParseOutcome {
        try parse(arguments, spec: spec, environment: ProcessEnvironment.values(for: spec))
    }

    /// The help text for the command reached by following `path` from `spec`.
    ///
    /// Traps when `path` names a subcommand `spec` does not have.
    public static func helpText(for spec: CommandSpec, path: [String] = []) -> String {
        guard let chain = spec.chain(following: path) else {
            preconditionFailure("'\(spec.name)' has no subcommand path \(path)")
        }
        return HelpFormatter(chain: chain).render()
    }
}
