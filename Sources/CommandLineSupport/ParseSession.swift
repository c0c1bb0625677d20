/// The state of one parse: a cursor over the words and the values collected so far.
struct ParseSession {
    private let arguments: [String]
    private let environment: [String: String]
    private var index = 0
    private var chain: [CommandSpec]
    /// The line `--version` asked for, once it was seen.
    private var versionLine: String?
    private var optionsEnded = false
    private var given: [String: [String]] = [:]
    private var positionals: [String] = []

    init(arguments: [String], root: CommandSpec, environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
        self.chain = [root]
    }

    private var current: CommandSpec { chain[chain.count - 1] }
    private var commandName: String { chain.map(\.name).joined(separator: " ") }
    private var knownOptions: [OptionSpec] { chain.flatMap(\.options) }

    mutating func run() throws(ArgumentError) -> ParseOutcome {
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded {
                try takePositional(word)
            } else if word == "--" {
                optionsEnded = true
            } else if word.hasPrefix("--") {
                if try takeLongOption(word.dropFirst(2)) { return versionLine.map(ParseOutcome.versionRequested) ?? help() }
            } else if Self.isShortCluster(word) {
                if try takeShortCluster(word) { return help() }
            } else {
                try takePositional(word)
            }
        }
        return .command(try finish())
    }

    // MARK: Words

    /// `-x…` where `x` could be a short name; `-` alone and negative numbers (`-5`, `-.5`) are not.
    private static func isShortCluster(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    /// Whether a word would be read as an option rather than as a value.
    private static func looksLikeOption(_ word: String) -> Bool {
        word.hasPrefix("--") || isShortCluster(word)
    }

    /// Handles `--name` or `--name=value` (given without its dashes); returns whether help was asked for.
    private mutating func takeLongOption(_ body: Substring) throws(ArgumentError) -> Bool {
        let name: Substring
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = body
            inlineValue = nil
        }
        if name == "help" {
            guard inlineValue == nil else { throw flagWithValue("--help") }
            return true
        }
        if name == "version", let version = chain[0].version {
            guard inlineValue == nil else { throw flagWithValue("--version") }
            versionLine = "\(chain[0].name) \(version)\n"
            return true
        }
        guard let option = knownOptions.first(where: { $0.name == name }) else {
            throw unknownOption(String(name))
        }
        if option.isFlag {
            guard inlineValue == nil else { throw flagWithValue(option.displayName) }
            given[option.name, default: []].append("")
        } else {
            if let inlineValue {
                given[option.name, default: []].append(inlineValue)
            } else {
                given[option.name, default: []].append(try nextValue(for: option, spelled: option.displayName))
            }
        }
        return false
    }

    /// Handles `-s` or a cluster of short flags `-vq`; returns whether help was asked for.
    private mutating func takeShortCluster(_ word: String) throws(ArgumentError) -> Bool {
        let letters = Array(word.dropFirst())
        for (position, letter) in letters.enumerated() {
            if letter == "h" { return true }
            guard let option = knownOptions.first(where: { $0.shortName == letter }) else {
                throw unknownShortOption(letter, in: word)
            }
            if option.isFlag {
                given[option.name, default: []].append("")
            } else if position == letters.count - 1 {
                given[option.name, default: []].append(try nextValue(for: option, spelled: "-\(letter)"))
            } else {
                if let long = longOption(spelledWithOneDash: word) { throw unknownOptionSuggesting(word, long) }
                throw ArgumentError(
                    .missingValue,
                    "option '-\(letter)' takes a value, so it must come last in '\(word)' and its value in the next word",
                    command: commandName)
            }
        }
        return false
    }

    /// Consumes the next word as the value of `option`, unless there is none or it looks like an option.
    private mutating func nextValue(for option: OptionSpec, spelled: String) throws(ArgumentError) -> String {
        let placeholder = option.valueName ?? "VALUE"
        guard index < arguments.count, !Self.looksLikeOption(arguments[index]) else {
            var message = "missing value for option '\(spelled)' (expected \(placeholder))"
            if index < arguments.count, arguments[index] != "--" {
                message += "; to pass a value starting with '-', write \(option.displayName)=\(placeholder)"
            }
            throw ArgumentError(.missingValue, message, command: commandName)
        }
        index += 1
        return arguments[index - 1]
    }

    /// A subcommand name when the current command has subcommands, else a positional argument.
    ///
    /// A command with both (`grants APP_ID` beside `grants set …`) takes its first word as a
    /// subcommand when it names one and comes before `--`; anything else is its first argument
    /// (`healthctl grants -- set` shows the grants of an app called "set").
    private mutating func takePositional(_ word: String) throws(ArgumentError) {
        if !current.subcommands.isEmpty {
            if current.positionals.isEmpty {
                guard let subcommand = current.subcommand(named: word) else { throw unknownSubcommand(word) }
                chain.append(subcommand)
                return
            }
            if positionals.isEmpty, !optionsEnded, let subcommand = current.subcommand(named: word) {
                chain.append(subcommand)
                return
            }
        }
        let specs = current.positionals
        let limit = specs.last?.isVariadic == true ? Int.max : specs.count
        guard positionals.count < limit else {
            let takes = limit == 0 ? "takes no arguments" : "takes at most \(limit) argument\(limit == 1 ? "" : "s")"
            throw ArgumentError(
                .unexpectedArgument, "unexpected argument '\(word)'; '\(commandName)' \(takes)",
                command: commandName)
        }
        positionals.append(word)
    }

    // MARK: Finishing

    private func finish() throws(ArgumentError) -> ParsedCommand {
        if !current.subcommands.isEmpty && current.positionals.isEmpty && !current.runsAlone {
            let names = current.subcommands.map(\.name).joined(separator: ", ")
            throw ArgumentError(
                .missingSubcommand, "'\(commandName)' needs a subcommand: \(names)", command: commandName)
        }
        for (position, spec) in current.positionals.enumerated() where !spec.isOptional && position >= positionals.count {
            throw ArgumentError(.missingArgument, "missing required argument '\(spec.name)'", command: commandName)
        }
        var options: [String: OptionSpec] = [:]
        var resolved: [String: ParsedCommand.Resolved] = [:]
        for option in knownOptions {
            options[option.name] = option
            resolved[option.name] = resolve(option)
        }
        return ParsedCommand(
            path: chain.dropFirst().map(\.name), commandName: commandName, positionals: positionals,
            options: options, resolved: resolved, positionalSpecs: current.positionals)
    }

    /// Command line, then environment, then default.
    private func resolve(_ option: OptionSpec) -> ParsedCommand.Resolved? {
        if let values = given[option.name], !values.isEmpty {
            return .init(values: values, source: .commandLine)
        }
        if let variable = option.environmentVariable, let value = environment[variable], !value.isEmpty {
            if option.isFlag {
                let on = ["1", "true", "yes", "on"].contains(value.lowercased())
                return on ? .init(values: [""], source: .environment(variable)) : nil
            }
            return .init(values: [value], source: .environment(variable))
        }
        if let value = option.defaultValue {
            return .init(values: [value], source: .defaultValue)
        }
        return nil
    }

    private func help() -> ParseOutcome {
        .helpRequested(HelpFormatter(chain: chain).render())
    }

    // MARK: Errors

    /// `--name` is not declared; suggest a declared long name a couple of edits away.
    private func unknownOption(_ name: String) -> ArgumentError {
        let candidates = knownOptions.map(\.name) + ["help"] + (chain[0].version == nil ? [] : ["version"])
        var message = "unknown option '--\(name)'"
        if let suggestion = EditDistance.closest(to: name, among: candidates) {
            message += "; did you mean '--\(suggestion)'?"
        }
        return ArgumentError(.unknownOption, message, command: commandName)
    }

    private func unknownShortOption(_ letter: Character, in word: String) -> ArgumentError {
        if let long = longOption(spelledWithOneDash: word) { return unknownOptionSuggesting(word, long) }
        let message = word.count == 2 ? "unknown option '\(word)'" : "unknown option '-\(letter)' in '\(word)'"
        return ArgumentError(.unknownOption, message, command: commandName)
    }

    private func unknownOptionSuggesting(_ word: String, _ option: OptionSpec) -> ArgumentError {
        ArgumentError(
            .unknownOption, "unknown option '\(word)'; did you mean '\(option.displayName)'?", command: commandName)
    }

    /// The long option a word like `-socket` or `-socket=x` probably meant.
    private func longOption(spelledWithOneDash word: String) -> OptionSpec? {
        let body = word.dropFirst()
        let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? String(body)
        return knownOptions.first { $0.name == name }
    }

    private func flagWithValue(_ spelled: String) -> ArgumentError {
        ArgumentError(.unexpectedValue, "option '\(spelled)' is a flag and does not take a value", command: commandName)
    }

    private func unknownSubcommand(_ word: String) -> ArgumentError {
        let names = current.subcommands.map(\.name)
        var message = "unknown subcommand '\(word)' for '\(commandName)'"
        if let suggestion = EditDistance.closest(to: word, among: names) {
            message += "; did you mean '\(suggestion)'?"
        }
        message += " (valid subcommands: \(names.joined(separator: ", ")))"
        return ArgumentError(.unknownSubcommand, message, command: commandName)
    }
}
