/// Lays out rows of text as left-aligned columns separated by two spaces.
///
/// Widths count characters (grapheme clusters), so wide East Asian characters can misalign a row.
/// Control characters in cells become spaces so a cell cannot break its line; trailing spaces are trimmed.
enum TableFormatter {
    /// The space between two columns.
    static let gap = "  "

    /// `header` and then `rows`, aligned; rows shorter than the widest are padded with empty cells.
    static func render(header: [String], rows: [[String]]) -> String {
        render(rows: [header] + rows)
    }

    /// `rows` aligned in columns, without a header (for key–value listings).
    static func render(rows: [[String]]) -> String {
        let cleaned = rows.map { $0.map(singleLine) }
        let columnCount = cleaned.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columnCount)
        for row in cleaned {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return cleaned.map { row in
            var line = ""
            for column in 0..<columnCount {
                let cell = column < row.count ? row[column] : ""
                line += cell
                if column < columnCount - 1 {
                    line += String(repeating: " ", count: widths[column] - cell.count) + gap
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// `text` shortened to at most `width` characters, ending in `…` when cut.
    static func clip(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        var kept = String(text.prefix(width - 1))
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// `text` with tabs, newlines and other control characters replaced by spaces.
    static func singleLine(_ text: String) -> String {
        String(text.map { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : character
        })
    }
}
