extension CommandSpec {
    /// Mistakes in the spec itself (duplicate names, a required argument after an optional one, …);
    /// empty for a well-formed spec. The parser refuses to run on a spec with problems.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        collectProblems(into: &problems, inheritedLong: [], inheritedShort: [], path: name, hasVersion: version != nil)
        return problems
    }

    private func collectProblems(
        into problems: inout [String], inheritedLong: Set<String>, inheritedShort: Set<Character>, path: String, hasVersion: Bool
    ) {
        var long = inheritedLong
        var short = inheritedShort
        for option in options {
            let label = "'\(path)' option '\(option.displayName)'"
            if option.name.isEmpty || option.name.contains("=") || option.name.contains(" ") {
                problems.append("\(label): a long name must be non-empty, without '=' or spaces")
            }
            if option.name == "help" { problems.append("\(label): '--help' is built in") }
            if option.name == "version" && hasVersion { problems.append("\(label): '--version' is built in") }
            if !long.insert(option.name).inserted { problems.append("\(label): the name is already used") }
            if let letter = option.shortName {
                if letter == "h" { problems.append("\(label): '-h' is built in") }
                if letter == "-" || letter == "=" || letter.isNumber || letter == "." || letter.isWhitespace {
                    problems.append("\(label): '-\(letter)' cannot be a short name")
                }
                if !short.insert(letter).inserted { problems.append("\(label): '-\(letter)' is already used") }
            }
            if option.isFlag && option.defaultValue != nil {
                problems.append("\(label): a flag cannot have a default")
            }
            if option.isFlag && option.isRepeatable {
                problems.append("\(label): a flag cannot be repeatable (use count(_:) to count occurrences)")
            }
        }
        var seenOptional = false
        var positionalNames = Set<String>()
        for (index, positional) in positionals.enumerated() {
            let label = "'\(path)' argument '\(positional.name)'"
            if positional.name.isEmpty { problems.append("\(label): the name must be non-empty") }
            if !positionalNames.insert(positional.name).inserted {
                problems.append("\(label): the name is already used")
            }
            if positional.isVariadic && index != positionals.count - 1 {
                problems.append("\(label): only the last argument can be variadic")
            }
            if seenOptional && !positional.isOptional {
                problems.append("\(label): a required argument cannot follow an optional one")
            }
            seenOptional = seenOptional || positional.isOptional
        }
        // Its first word picks a subcommand or is its first argument, and with no word at all it
        // runs itself: so its own arguments must all be optional.
        if !subcommands.isEmpty && positionals.contains(where: { !$0.isOptional }) {
            problems.append("'\(path)': a command with subcommands can take only optional positional arguments")
        }
        var subcommandNames = Set<String>()
        for subcommand in subcommands {
            if subcommand.name.isEmpty || subcommand.name.hasPrefix("-") {
                problems.append("'\(path)' subcommand '\(subcommand.name)': the name must be non-empty, not starting with '-'")
            }
            if !subcommandNames.insert(subcommand.name).inserted {
                problems.append("'\(path)' subcommand '\(subcommand.name)': the name is already used")
            }
            subcommand.collectProblems(
                into: &problems, inheritedLong: long, inheritedShort: short, path: path + " " + subcommand.name,
                hasVersion: hasVersion)
        }
    }
}
