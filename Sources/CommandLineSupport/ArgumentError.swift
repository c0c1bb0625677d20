/// A command line the parser rejects, with a message fit to show the person who typed it.
public struct ArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for code that reacts to particular mistakes.
    public enum Kind: Sendable, Hashable {
        /// An option that the command does not declare.
        case unknownOption
        /// An option that needs a value was given none.
        case missingValue
        /// A boolean flag was given a value (`--flag=x`).
        case unexpectedValue
        /// A required positional argument is absent.
        case missingArgument
        /// More positional arguments than the command takes.
        case unexpectedArgument
        /// A word in subcommand position that names no subcommand.
        case unknownSubcommand
        /// A command that only groups subcommands was run without one.
        case missingSubcommand
        /// A required option has no value from the command line, the environment or a default.
        case missingOption
        /// A value that does not parse as the expected type or lies out of range.
        case invalidValue
    }

    /// What went wrong.
    public var kind: Kind
    /// The explanation, without an `error:` prefix.
    public var message: String
    /// The command the error belongs to (`healthctl apps add`); empty when unknown.
    public var command: String

    /// Creates an error of `kind` explained by `message`, raised while handling `command`.
    public init(_ kind: Kind, _ message: String, command: String = "") {
        self.kind = kind
        self.message = message
        self.command = command
    }

    /// The message alone.
    public var description: String { message }

    /// Where to read more: `(see 'healthctl apps --help')`, or `(see --help)` when the command is unknown.
    public var helpHint: String {
        command.isEmpty ? "(see --help)" : "(see '\(command) --help')"
    }
}
