/// SHA-1 (FIPS 180-4) of a byte string, for name-based (version 5) UUIDs; not for security.
///
/// Written with plain loops over unsafe buffers, so it stays fast in debug builds too, and without
/// allocating: full blocks are read from the message in place, the padded tail from the stack.
enum SHA1 {
    /// The five state words after hashing a message.
    typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 20-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        let state = message.withUnsafeBufferPointer { words($0) }
        var result = [UInt8](repeating: 0, count: 20)
        let parts = [state.0, state.1, state.2, state.3, state.4]
        var index = 0
        while index < 20 {
            result[index] = UInt8(truncatingIfNeeded: parts[index / 4] >> UInt32(24 - 8 * (index % 4)))
            index += 1
        }
        return result
    }

    /// The digest of `message` as its five big-endian words.
    static func words(_ message: UnsafeBufferPointer<UInt8>) -> Words {
        var state: Words = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            let fullBlocks = message.count / 64
            var block = 0
            while block < fullBlocks {
                compress(UnsafeBufferPointer(rebasing: message[(block * 64)..<(block * 64 + 64)]), state: &state, words: schedule)
                block += 1
            }
            // The tail: the rest of the message, 0x80, zeros, and the bit length (one or two blocks).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let rest = message.count - fullBlocks * 64
                let tailCount = rest + 9 <= 64 ? 64 : 128
                var index = 0
                while index < rest {
                    tail[index] = message[fullBlocks * 64 + index]
                    index += 1
                }
                tail[rest] = 0x80
                index = rest + 1
                while index < tailCount {
                    tail[index] = 0
                    index += 1
                }
                var bitLength = UInt64(message.count) &* 8
                var position = tailCount - 1
                while bitLength != 0 {
                    tail[position] = UInt8(truncatingIfNeeded: bitLength)
                    bitLength >>= 8
                    position -= 1
                }
                compress(UnsafeBufferPointer(rebasing: tail[0..<64]), state: &state, words: schedule)
                if tailCount == 128 { compress(UnsafeBufferPointer(rebasing: tail[64..<128]), state: &state, words: schedule) }
            }
        }
        return state
    }

    /// Folds one 64-byte block into `state`; `words` is scratch space of 80 words.
    private static func compress(_ block: UnsafeBufferPointer<UInt8>, state: inout Words, words: UnsafeMutableBufferPointer<UInt32>) {
        var index = 0
        while index < 16 {
            words[index] = UInt32(block[4 * index]) << 24 | UInt32(block[4 * index + 1]) << 16
                | UInt32(block[4 * index + 2]) << 8 | UInt32(block[4 * index + 3])
            index += 1
        }
        while index < 80 {
            let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
            words[index] = mixed << 1 | mixed >> 31
            index += 1
        }
        var (a, b, c, d, e) = state
        // Four loops of 20 rounds, one per round function: no branch per round.
        @inline(__always) func round(_ mixed: UInt32, _ constant: UInt32, _ word: UInt32) {
            let next = (a << 5 | a >> 27) &+ mixed &+ e &+ constant &+ word
            e = d
            d = c
            c = b << 30 | b >> 2
            b = a
            a = next
        }
        index = 0
        while index < 20 {
            round((b & c) | (~b & d), 0x5A82_7999, words[index])
            index += 1
        }
        while index < 40 {
            round(b ^ c ^ d, 0x6ED9_EBA1, words[index])
            index += 1
        }
        while index < 60 {
            round((b & c) | (b & d) | (c & d), 0x8F1B_BCDC, words[index])
            index += 1
        }
        while index < 80 {
            round(b ^ c ^ d, 0xCA62_C1D6, words[index])
            index += 1
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
