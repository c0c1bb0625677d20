extension ProtoJSON {
    /// The value as JSON text: indented by two spaces per level when `pretty` (protoc's layout),
    /// otherwise on one line without spaces. Members in their order, so the same value always
    /// prints the same bytes.
    public func text(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: "")
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.quote(text, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            let inner = indent + "  "
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + inner }
                element.write(to: &out, pretty: pretty, indent: inner)
            }
            out += pretty ? "\n" + indent + "]" : "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            let inner = indent + "  "
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + inner }
                Self.quote(member.key, to: &out)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, indent: inner)
            }
            out += pretty ? "\n" + indent + "}" : "}"
        }
    }

    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
