extension ProtoJSON {
    /// Parses one JSON text (RFC 8259); anything but whitespace after the value is an error.
    ///
    /// Hand-written rather than JSONSerialization so member order and number text survive (a 64-bit
    /// integer given as a number keeps every digit) and duplicate names can be refused.
    public static func parse(_ text: String) throws(ProtoJSONError) -> ProtoJSON {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// The cursor over the text's bytes.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        /// Nesting deeper than this is refused: the parser recurses, and no message nests so deep.
        static let maxDepth = 100

        func error(_ problem: String) -> ProtoJSONError {
            ProtoJSONError("$", "invalid JSON at byte \(position): \(problem)")
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String, _ value: ProtoJSON) throws(ProtoJSONError) -> ProtoJSON {
            let expected = Array(literal.utf8)
            guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else {
                throw error("expected a value")
            }
            position += expected.count
            return value
        }

        mutating func value(depth: Int) throws(ProtoJSONError) -> ProtoJSON {
            guard depth < Self.maxDepth else { throw error("nested too deeply") }
            guard position < bytes.count else { throw error("unexpected end of text") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("expected a value")
            }
        }

        mutating func object(depth: Int) throws(ProtoJSONError) -> ProtoJSON {
            position += 1
            var members: [Member] = []
            var seen = Set<String>()
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                guard seen.insert(key).inserted else { throw error("duplicate member \"\(key)\"") }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                members.append(Member(key, try value(depth: depth + 1)))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of text") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(ProtoJSONError) -> ProtoJSON {
            position += 1
            var elements: [ProtoJSON] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end of text") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func number() throws(ProtoJSONError) -> ProtoJSON {
            let start = position
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.position
                while parser.position < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.position]) { parser.position += 1 }
                return parser.position - from
            }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integer = position
            guard digits(&self) > 0 else { throw error("expected digits") }
            if bytes[integer] == UInt8(ascii: "0"), position - integer > 1 { throw error("leading zero") }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits(&self) > 0 else { throw error("expected digits after '.'") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        mutating func hex4() throws(ProtoJSONError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw error("bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        mutating func string() throws(ProtoJSONError) -> String {
            position += 1
            var out: [UInt8] = []
            while true {
                guard position < bytes.count else { throw error("unterminated string") }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { throw error("unterminated string") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
                                  bytes[position + 1] == UInt8(ascii: "u") else { throw error("lone surrogate") }
                            position += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw error("lone surrogate") }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw error("bad escape")
                    }
                case 0x00..<0x20: throw error("control character in a string")
                default: out.append(byte)
                }
            }
        }
    }
}
