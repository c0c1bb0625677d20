/// SplitMix64 (Steele, Lea and Flood): a small, fast, seedable pseudo-random generator, the same on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The current state; each draw advances it by the golden-ratio increment.
    public private(set) var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one independent stream: `seed` mixed with the stream's numbers.
    public init(seed: UInt64, stream: UInt64...) {
        var mixer = SplitMix64(seed: seed)
        var mixed = mixer.next()
        for part in stream {
            mixer = SplitMix64(seed: mixed ^ part &* 0xD6E8_FEB8_6659_FD93)
            mixed = mixer.next()
        }
        state = mixed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in `0 ..< 1`, from the top 53 bits (the same on every platform).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform number in `range` (lower bound included, upper excluded).
    public mutating func uniform(_ range: Range<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A uniform integer in `range`, by multiply-shift (no modulo bias worth noticing for small ranges).
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next().multipliedFullWidth(by: width).high)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }
}
