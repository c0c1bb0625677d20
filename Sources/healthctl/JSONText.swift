/// Hand-written JSON fragments for the line formats: fast, and the same bytes every time.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A finite number: integral values without a fraction (`72`), others in Swift's shortest round-trip form (`0.35`).
    static func number(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no infinities or NaNs")
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `{"a": "1", "b": "2"}` with keys sorted.
    static func object(_ entries: [String: String]) -> String {
        "{" + entries.keys.sorted().map { "\(string($0)): \(string(entries[$0, default: ""]))" }.joined(separator: ", ") + "}"
    }
}
