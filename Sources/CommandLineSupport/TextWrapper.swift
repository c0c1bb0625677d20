/// Greedy word wrapping for help text.
enum TextWrapper {
    /// `text` broken into lines of at most `width` characters at spaces; newlines in `text` are kept,
    /// and a word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrapParagraph($0, width: max(1, width)) }
            .joined(separator: "\n")
            .replacing(String(gluedSpace), with: " ")
    }

    /// A space that `wrap` never breaks at and prints as a plain space.
    private static let gluedSpace: Character = "\u{1F}"

    /// `text` marked so that `wrap` keeps it on one line.
    static func unbreakable(_ text: String) -> String {
        String(text.map { $0 == " " ? gluedSpace : $0 })
    }

    private static func wrapParagraph(_ paragraph: Substring, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in paragraph.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
