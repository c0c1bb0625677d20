/// A record's content-derived uuid as its two big-endian 64-bit words: the parser's key for
/// finding repeats in a batch (hashing 16 bytes, not a 36-character String), written out as
/// text only for the sample itself.
struct AppleHealthUUID: Hashable {
    /// Bytes 0-7 of the uuid.
    let high: UInt64
    /// Bytes 8-15 of the uuid.
    let low: UInt64

    /// RFC 9562 version 8 layout over a SHA-1 digest's first 16 bytes: 48 bits of the start's Unix
    /// milliseconds, the version, 74 bits of the digest, the variant.
    init(startMicros: Int64, digest: (UInt32, UInt32, UInt32, UInt32, UInt32)) {
        let millis = UInt64(max(0, startMicros / 1_000))
        var high = UInt64(digest.0) << 32 | UInt64(digest.1)
        var low = UInt64(digest.2) << 32 | UInt64(digest.3)
        high = millis << 16 | (high & 0xFFFF)
        high = high & ~UInt64(0xF000) | 0x8000
        low = low & ~(UInt64(0xC0) << 56) | (UInt64(0x80) << 56)
        self.high = high
        self.low = low
    }

    /// The canonical text: 8-4-4-4-12 lower-case hex digits.
    var text: String {
        String(unsafeUninitializedCapacity: 36) { text in
            let hex: StaticString = "0123456789abcdef"
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 8 ? high : low
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
                text[position] = hex.utf8Start[Int(byte >> 4)]
                text[position + 1] = hex.utf8Start[Int(byte & 0x0F)]
                position += 2
            }
            return 36
        }
    }
}
