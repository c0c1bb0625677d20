/// Renders the `--help` text of one command: usage, summary, arguments, options and subcommands.
struct HelpFormatter {
    /// The command and its ancestors, top command first.
    let chain: [CommandSpec]
    /// The line width text is wrapped to.
    var width = 80
    /// The widest the label column grows; longer labels put their help on the next line.
    var maxLabelWidth = 28

    private var command: CommandSpec { chain[chain.count - 1] }
    private var commandName: String { chain.map(\.name).joined(separator: " ") }

    func render() -> String {
        var sections: [String] = [usageLine()]
        var about = TextWrapper.wrap(command.summary, width: width)
        if let discussion = command.discussion, !discussion.isEmpty {
            about += "\n\n" + TextWrapper.wrap(discussion, width: width)
        }
        if !about.isEmpty { sections.append(about) }

        let arguments = command.positionals.map { Row(label: $0.usage, help: $0.help) }
        let options = chain.reversed().flatMap(\.options).map(optionRow)
            + [Row(label: "-h, --help", help: "Show this help.")]
            + (chain.first?.version == nil ? [] : [Row(label: "--version", help: "Show the version.")])
        let subcommands = command.subcommands.map { Row(label: $0.name, help: $0.summary) }
        let labelWidth = min(maxLabelWidth, (arguments + options + subcommands).map(\.label.count).max() ?? 0)

        if !arguments.isEmpty { sections.append(table("ARGUMENTS:", arguments, labelWidth: labelWidth)) }
        sections.append(table("OPTIONS:", options, labelWidth: labelWidth))
        if !subcommands.isEmpty {
            sections.append(table("SUBCOMMANDS:", subcommands, labelWidth: labelWidth))
            sections.append(
                TextWrapper.wrap("See '\(commandName) SUBCOMMAND --help' for help on a subcommand.", width: width))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    private func usageLine() -> String {
        var words = [commandName, "[OPTIONS]"]
        if command.subcommands.isEmpty {
            words += command.positionals.map(\.usage)
        } else if command.positionals.isEmpty {
            words.append(command.runsAlone ? "[SUBCOMMAND]" : "SUBCOMMAND")
        } else {
            words.append("[SUBCOMMAND | " + command.positionals.map(\.usage).joined(separator: " ") + "]")
        }
        let prefix = "USAGE: "
        let body = TextWrapper.wrap(words.joined(separator: " "), width: width - prefix.count)
        let indent = String(repeating: " ", count: prefix.count)
        return prefix + body.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
    }

    private func optionRow(_ option: OptionSpec) -> Row {
        var label = option.shortName.map { "-\($0), " } ?? "    "
        label += option.displayName
        if let value = option.valueName { label += " " + value }
        var notes: [String] = []
        if option.isRepeatable { notes.append("(repeatable)") }
        if let value = option.defaultValue { notes.append("(default: \(value))") }
        if let variable = option.environmentVariable { notes.append("(env: \(variable))") }
        // Each note wraps as one word.
        let help = ([option.help] + notes.map { TextWrapper.unbreakable($0) }).joined(separator: " ")
        return Row(label: label, help: help)
    }

    private struct Row {
        var label: String
        var help: String
    }

    /// A heading and two aligned columns, indented by two spaces.
    private func table(_ heading: String, _ rows: [Row], labelWidth: Int) -> String {
        let indent = "  "
        let gap = "  "
        let helpColumn = indent.count + labelWidth + gap.count
        let helpWidth = max(20, width - helpColumn)
        let pad = String(repeating: " ", count: helpColumn)
        var lines = [heading]
        for row in rows {
            let helpLines = TextWrapper.wrap(row.help, width: helpWidth).split(
                separator: "\n", omittingEmptySubsequences: false)
            var first = indent + row.label
            var rest = helpLines.dropFirst(0)
            if row.label.count <= labelWidth, let head = helpLines.first {
                first += String(repeating: " ", count: labelWidth - row.label.count) + gap + head
                rest = helpLines.dropFirst()
            }
            lines.append(first)
            lines += rest.map { $0.isEmpty ? "" : pad + $0 }
        }
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trailingSpacesRemoved: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
