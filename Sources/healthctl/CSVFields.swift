/// Splits one CSV line into fields (RFC 4180 quoting: `"a,b"`, `"say ""hi"""`; no line breaks inside fields).
enum CSVFields {
    /// The fields of `line`; an unterminated quote or text after a closing quote is an error.
    static func split(_ line: String) throws(SampleLineError) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var afterQuote = false
        var characters = line.makeIterator()
        var atFieldStart = true
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case ",":
                fields.append(current)
                current = ""
                atFieldStart = true
                afterQuote = false
                continue
            case "\"" where atFieldStart:
                quoted = true
            case "\"" where afterQuote:
                // A doubled quote inside a quoted field.
                current.append("\"")
                quoted = true
            default:
                if afterQuote { throw SampleLineError("text after a closing quote in field \(fields.count + 1)") }
                current.append(character)
            }
            afterQuote = false
            atFieldStart = false
        }
        if quoted { throw SampleLineError("unterminated quote in field \(fields.count + 1)") }
        fields.append(current)
        return fields
    }
}
