/// A batched sample's uuid as the parser's per-batch dictionary keys it: its 128 bits as two words
/// when it is canonical 8-4-4-4-12 hex text (every uuid the parser makes), else the text itself.
/// Hashing two words instead of 36 characters took about 6 % of the parsing thread (SCENARIOS.md).
enum AppleHealthUUIDKey: Hashable {
    /// A canonical uuid's 128 bits.
    case words(UInt64, UInt64)
    /// Any other spelling, as written.
    case text(String)

    /// The key of `uuid`.
    init(_ uuid: String) {
        var text = uuid
        let words = text.withUTF8 { Self.words(of: $0) }
        self = words.map { .words($0.high, $0.low) } ?? .text(uuid)
    }

    /// The two words of canonical 8-4-4-4-12 hex text (either case), or nil.
    static func words(of bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte &- UInt8(ascii: "A") &+ 10
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
}
