import Foundation

/// Fresh sample UUIDs, time-ordered (RFC 9562 version 7): 48 bits of Unix milliseconds, then 74 random bits.
///
/// The broker keeps a unique index on every sample's UUID. Random (version 4) UUIDs land all over
/// that index, so a batch of 1,000 dirties about 1,000 index pages; UUIDs that grow with time land
/// at its end and dirty a few. Samples created within the same millisecond still differ in their
/// random bits. Any canonical UUID is accepted by the broker: this is only the default.
public enum SampleUUID {
    /// A new lower-case version 7 UUID for the current time.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(unixMillis: UInt64(max(0, Date().timeIntervalSince1970 * 1_000)), using: &generator)
    }

    /// A lower-case version 7 UUID for `unixMillis` (its low 48 bits), with random bits from `generator`.
    public static func make<G: RandomNumberGenerator>(unixMillis: UInt64, using generator: inout G) -> String {
        let random = generator.next() as UInt64
        let more = generator.next() as UInt64
        // 48 bits time | 4 bits version (7) | 12 random bits; then 2 bits variant (10) | 62 random bits.
        let high = (unixMillis & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | (random & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (more & 0x3FFF_FFFF_FFFF_FFFF)
        return format(high, low)
    }

    /// 128 bits as lower-case 8-4-4-4-12 hex.
    static func format(_ high: UInt64, _ low: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { text.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            text.append(digits[Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
