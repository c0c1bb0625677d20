/// A valid command line: which (sub)command to run, its option values and its positional arguments.
///
/// Option look-ups take the long name without dashes (`string("socket")`); leading dashes are
/// ignored. Asking for a name the command does not declare is a programming error and traps.
public struct ParsedCommand: Sendable, Hashable {
    /// One option's resolved values and where they came from.
    struct Resolved: Sendable, Hashable {
        var values: [String]
        var source: ValueSource
    }

    /// The subcommand words below the top command: `["apps", "add"]` for `healthctl apps add X`.
    public let path: [String]
    /// The full command name: `healthctl apps add`.
    public let commandName: String
    /// Every positional argument, in order.
    public let positionals: [String]

    let options: [String: OptionSpec]
    let resolved: [String: Resolved]
    let positionalSpecs: [PositionalSpec]

    init(
        path: [String], commandName: String, positionals: [String],
        options: [String: OptionSpec], resolved: [String: Resolved], positionalSpecs: [PositionalSpec]
    ) {
        self.path = path
        self.commandName = commandName
        self.positionals = positionals
        self.options = options
        self.resolved = resolved
        self.positionalSpecs = positionalSpecs
    }

    /// The value of an option taking a value: the last one given, else the environment's, else the default.
    public func string(_ name: String) -> String? {
        let option = valueOption(name)
        return resolved[option.name]?.values.last
    }

    /// Every value of an option (all occurrences for a repeatable one); empty when it has none.
    public func strings(_ name: String) -> [String] {
        let option = valueOption(name)
        guard let values = resolved[option.name]?.values else { return [] }
        return option.isRepeatable ? values : Array(values.suffix(1))
    }

    /// Whether a boolean flag is on, from the command line or its environment variable.
    public func flag(_ name: String) -> Bool {
        count(name) > 0
    }

    /// How many times a boolean flag was given (1 when only its environment variable turned it on).
    public func count(_ name: String) -> Int {
        let option = declaredOption(name)
        precondition(option.isFlag, "'\(option.displayName)' takes a value; use string(_:) instead")
        return resolved[option.name]?.values.count ?? 0
    }

    /// Where an option's value came from, or `nil` when it has none.
    public func source(of name: String) -> ValueSource? {
        resolved[declaredOption(name).name]?.source
    }

    /// The positional argument at `index`, or `nil` past the end.
    public func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    /// The positional argument declared as `name` (the first word of a variadic one), or `nil` when absent.
    public func positional(_ name: String) -> String? {
        positionals(name).first
    }

    /// The words of the positional argument declared as `name`: all remaining words for a variadic one.
    public func positionals(_ name: String) -> [String] {
        guard let index = positionalSpecs.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("'\(commandName)' has no argument named '\(name)'")
        }
        guard index < positionals.count else { return [] }
        return positionalSpecs[index].isVariadic ? Array(positionals[index...]) : [positionals[index]]
    }

    func declaredOption(_ name: String) -> OptionSpec {
        guard let option = options[OptionSpec.stripDashes(name)] else {
            preconditionFailure("'\(commandName)' has no option named '\(name)'")
        }
        return option
    }

    private func valueOption(_ name: String) -> OptionSpec {
        let option = declaredOption(name)
        precondition(!option.isFlag, "'\(option.displayName)' is a flag; use flag(_:) instead")
        return option
    }
}
