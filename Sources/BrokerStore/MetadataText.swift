import BrokerModel

/// The stored form of sample metadata: a JSON object of strings with keys sorted by UTF-8 bytes.
///
/// Deterministic (the same map always encodes to the same text, which comparing a stored sample
/// with a resaved one relies on) and lossless for any Swift string: `"`, `\` and control characters
/// are escaped, everything else is copied as UTF-8.
enum MetadataText {
    /// The text of the empty map.
    static let empty = "{}"

    /// Encodes `metadata` with its keys in UTF-8 byte order.
    static func encode(_ metadata: [String: String]) -> String {
        if metadata.isEmpty { return empty }
        let entries = metadata.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (offset, entry) in entries.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(entry.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendString(entry.value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes stored metadata; text that is not a JSON object of strings is `INTERNAL`.
    static func decode(_ text: String) throws(BrokerError) -> [String: String] {
        if text == empty { return [:] }
        var parser = Parser(bytes: Array(text.utf8))
        guard let metadata = parser.object() else {
            throw .internal("stored sample metadata is not a JSON object of strings")
        }
        return metadata
    }

    /// Appends `text` as a quoted JSON string.
    private static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Lower-case hex digits.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A strict reader of one JSON object whose values are all strings (standard escapes, surrogate pairs).
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        /// Reads the whole input as an object; nil when it is anything else.
        mutating func object() -> [String: String]? {
            skipSpace()
            guard consume(UInt8(ascii: "{")) else { return nil }
            var result: [String: String] = [:]
            skipSpace()
            if !consume(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard consume(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = string() else { return nil }
                    result[key] = value
                    skipSpace()
                } while consume(UInt8(ascii: ","))
                guard consume(UInt8(ascii: "}")) else { return nil }
            }
            skipSpace()
            return position == bytes.count ? result : nil
        }

        /// Skips JSON whitespace.
        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        /// Consumes `byte` if it is next.
        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Reads a quoted string.
        mutating func string() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return nil }
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
                        guard let scalar = unicodeEscape() else { return nil }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        /// Reads the XXXX of `\uXXXX` (and a following low surrogate escape when XXXX is a high one).
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let first = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(first) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let second = hex4(),
                      (0xDC00..<0xE000).contains(second) else { return nil }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            return Unicode.Scalar(first)
        }

        /// Reads four hex digits.
        mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                position += 1
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
