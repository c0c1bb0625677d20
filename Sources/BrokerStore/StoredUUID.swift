/// How `samples.uuid` is stored: a canonical UUID as its 16 bytes, anything else as the text it was.
///
/// The broker only ever saves canonical UUIDs (8-4-4-4-12 lowercase hex digits), and 16 bytes
/// instead of 36 characters make the table rows and the uuid index smaller, which ingest pays for
/// on every save. A value that is not canonical (a store-level caller's, or a row from before
/// schema version 6 that was never canonical) stays text, so it is kept exactly, compares equal
/// only to itself, and reads back unchanged.
enum StoredUUID {
    /// The 16 bytes of a canonical UUID, as two big-endian words, or nil for any other text.
    static func words(_ text: String) -> (UInt64, UInt64)? {
        var text = text
        return text.withUTF8 { words(utf8: $0) }
    }

    /// The 16 bytes of the canonical UUID spelled by `utf8`, or nil when it is not one.
    static func words(utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard utf8.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if digits < 16 {
                high = high << 4 | UInt64(value)
            } else {
                low = low << 4 | UInt64(value)
            }
            digits += 1
        }
        return (high, low)
    }

    /// The canonical text of the UUID whose 16 bytes are `bytes` (exactly 16).
    static func text(bytes: UnsafeRawBufferPointer) -> String {
        precondition(bytes.count == 16, "a stored UUID is 16 bytes")
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            hex.withUTF8Buffer { digits in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = digits[Int(byte >> 4)]
                    out[position + 1] = digits[Int(byte & 0x0f)]
                    position += 2
                }
            }
            return 36
        }
    }

    /// Calls `body` with the 16 bytes of `words`, big-endian.
    static func withBytes<R, E: Error>(of words: (UInt64, UInt64), _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian)) { (bytes) throws(E) -> R in try body(bytes) }
    }
}
