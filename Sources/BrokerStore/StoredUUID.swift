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
            // Wrapping differences instead of range patterns, which the optimizer left as calls.
            let value: UInt8
            if byte &- UInt8(ascii: "0") < 10 {
                value = byte &- UInt8(ascii: "0")
            } else if byte &- UInt8(ascii: "a") < 6 {
                value = byte &- UInt8(ascii: "a") + 10
            } else {
                return nil
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
    ///
    /// A query formats one per row it returns, so this writes the digits straight from the two words.
    static func text(bytes: UnsafeRawBufferPointer) -> String {
        precondition(bytes.count == 16, "a stored UUID is 16 bytes")
        let high = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        let low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return String(unsafeUninitializedCapacity: 36) { buffer in
            guard let out = buffer.baseAddress else { return 0 }
            // 8-4-4-4-12: the high word is the first three groups, the low word the last two.
            writeHex(high >> 32, digits: 8, to: out)
            out[8] = UInt8(ascii: "-")
            writeHex(high >> 16, digits: 4, to: out + 9)
            out[13] = UInt8(ascii: "-")
            writeHex(high, digits: 4, to: out + 14)
            out[18] = UInt8(ascii: "-")
            writeHex(low >> 48, digits: 4, to: out + 19)
            out[23] = UInt8(ascii: "-")
            writeHex(low, digits: 12, to: out + 24)
            return 36
        }
    }

    /// Writes the low `digits` hex digits of `value`, most significant first, lowercase.
    @inline(__always)
    private static func writeHex(_ value: UInt64, digits: Int, to out: UnsafeMutablePointer<UInt8>) {
        var value = value
        var index = digits
        while index > 0 {
            index -= 1
            let nibble = UInt8(truncatingIfNeeded: value & 0x0f)
            out[index] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
            value >>= 4
        }
    }

    /// Calls `body` with the 16 bytes of `words`, big-endian.
    static func withBytes<R, E: Error>(of words: (UInt64, UInt64), _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian)) { (bytes) throws(E) -> R in try body(bytes) }
    }
}
