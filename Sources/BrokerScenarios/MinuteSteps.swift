import HealthBrokerClient

/// Deterministic minute-level step samples, as a watch records them: one sample per minute, zero at
/// night, bursts by day. The same (seed, minute) always gives the same uuid and value, so importing
/// a range twice stores it once.
struct MinuteSteps: Sendable {
    /// One minute in µs.
    static let minute: Int64 = 60_000_000
    /// One day in µs.
    static let day: Int64 = 86_400_000_000

    /// Picks the uuids and values.
    let seed: UInt64

    /// The sample for the minute starting at `start` (µs since the epoch, a whole minute).
    func sample(startingAt start: Int64) -> Sample {
        let minuteIndex = UInt64(bitPattern: start / Self.minute)
        let hour = Int((start % Self.day) / (3_600 * 1_000_000))
        let draw = Self.mix(seed ^ (minuteIndex &* 0x9E37_79B9_7F4A_7C15))
        let steps: Int
        switch hour {
        case 0..<7, 23: steps = 0
        default: steps = draw % 4 == 0 ? 60 + Int((draw >> 8) % 60) : Int((draw >> 16) % 8)
        }
        return Sample(
            uuid: Self.uuid(Self.mix(seed &+ minuteIndex), Self.mix(~seed &+ minuteIndex)),
            type: .stepCount, startMicros: start, endMicros: start + Self.minute,
            value: .quantity(Quantity(Double(steps), "count")))
    }

    /// The samples of the `count` minutes starting at `start`.
    func samples(from start: Int64, count: Int) -> [Sample] {
        (0..<count).map { sample(startingAt: start + Int64($0) * Self.minute) }
    }

    /// A version-4-shaped UUID string from 128 bits.
    static func uuid(_ high: UInt64, _ low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = hex16(high) + hex16(low)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16])
            + "-" + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    /// SplitMix64's finaliser: a well-mixed 64-bit value from any input.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `value` as 16 lower-case hex digits.
    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
