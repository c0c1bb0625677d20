/// What parsing a command line produced: a command to run, or help to print.
public enum ParseOutcome: Sendable, Hashable {
    /// The command line was valid; run this command.
    case command(ParsedCommand)
    /// `--help` or `-h` was given; print this text and exit successfully.
    case helpRequested(String)
    /// `--version` was given to a program that has one; print this line and exit successfully.
    case versionRequested(String)

    /// The parsed command, or `nil` when help was requested.
    public var command: ParsedCommand? {
        if case .command(let command) = self { return command }
        return nil
    }

    /// The help text, or `nil` when a command was parsed.
    public var helpText: String? {
        if case .helpRequested(let text) = self { return text }
        return nil
    }
}
