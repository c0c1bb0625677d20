import BrokerSupport
import HealthBrokerClient

/// Deterministic random edits of encoded frames, for the tests that check the direct decoders
/// against protobuf-c on damaged input.
public struct ByteMutator {
    private var random: SplitMix64

    /// A mutator whose edits follow from `seed`.
    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The next pseudo-random 64 bits.
    public mutating func next() -> UInt64 {
        random.next()
    }

    /// `bytes` with one to four edits: a byte replaced, a tail cut, a byte inserted or a bit flipped.
    public mutating func mutated(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0...(next() % 3) {
            switch next() % 4 {
            case 0 where !bytes.isEmpty:
                bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next())
            case 1 where !bytes.isEmpty:
                bytes.removeLast(Int(next() % UInt64(min(bytes.count, 4))) + 1)
            case 2:
                bytes.insert(UInt8(truncatingIfNeeded: next()), at: Int(next() % UInt64(bytes.count + 1)))
            default:
                if !bytes.isEmpty {
                    let index = Int(next() % UInt64(bytes.count))
                    bytes[index] ^= UInt8(1) << (next() % 8)
                }
            }
        }
        return bytes
    }
}
