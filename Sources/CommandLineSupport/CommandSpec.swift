/// A command or subcommand: its name, help, options, positional arguments and subcommands.
///
/// Options declared on a command are also accepted after any of its subcommands, so a
/// `--socket` on `healthctl` works in `healthctl apps add --socket PATH APP_ID`. A command
/// with subcommands may take positional arguments of its own only when all are optional: its first
/// word picks the subcommand it names, and is otherwise its first argument.
public struct CommandSpec: Sendable, Hashable {
    /// The word that invokes the command: the program name at the top, `add` for `healthctl apps add`.
    public var name: String
    /// One line saying what the command does.
    public var summary: String
    /// Longer help shown under the summary; newlines separate paragraphs.
    public var discussion: String?
    /// The options this command declares (its subcommands inherit them).
    public var options: [OptionSpec]
    /// The positional arguments, in order.
    public var positionals: [PositionalSpec]
    /// The nested commands.
    public var subcommands: [CommandSpec]
    /// The program's version (top-level command only): when set, `--version` prints
    /// "NAME VERSION" and exits, wherever it stands before `--`.
    public var version: String?
    /// Whether a command with subcommands also runs on its own, with none named (`healthctl sources`
    /// beside `healthctl sources priority`).
    public var runsAlone: Bool

    /// Creates a command.
    public init(
        _ name: String,
        summary: String,
        discussion: String? = nil,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        subcommands: [CommandSpec] = [],
        version: String? = nil,
        runsAlone: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.version = version
        self.runsAlone = runsAlone
    }

    /// The direct subcommand called `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The chain of commands from this one down `path`, or `nil` when a word names no subcommand.
    func chain(following path: [String]) -> [CommandSpec]? {
        var chain = [self]
        for word in path {
            guard let next = chain[chain.count - 1].subcommand(named: word) else { return nil }
            chain.append(next)
        }
        return chain
    }

    /// Every environment variable named by an option of this command or a subcommand.
    var environmentVariables: Set<String> {
        var names = Set(options.compactMap(\.environmentVariable))
        for subcommand in subcommands { names.formUnion(subcommand.environmentVariables) }
        return names
    }
}
