/// SHA-1 (FIPS 180-4) of a byte string, for name-based (version 5) UUIDs; not for security.
///
/// Written with plain loops over unsafe buffers, so it stays fast in debug builds too.
enum SHA1 {
    /// The 20-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        let blockCount = (message.count + 8) / 64 + 1
        var padded = [UInt8](repeating: 0, count: blockCount * 64)
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var words = [UInt32](repeating: 0, count: 80)
        padded.withUnsafeMutableBufferPointer { bytes in
            message.withUnsafeBufferPointer { source in
                var index = 0
                while index < source.count {
                    bytes[index] = source[index]
                    index += 1
                }
            }
            bytes[message.count] = 0x80
            var bitLength = UInt64(message.count) &* 8
            var position = bytes.count - 1
            while bitLength != 0 {
                bytes[position] = UInt8(truncatingIfNeeded: bitLength)
                bitLength >>= 8
                position -= 1
            }
            words.withUnsafeMutableBufferPointer { schedule in
                var block = 0
                while block < blockCount {
                    compress(UnsafeBufferPointer(rebasing: bytes[(block * 64)..<(block * 64 + 64)]), state: &state, words: schedule)
                    block += 1
                }
            }
        }
        var result = [UInt8](repeating: 0, count: 20)
        let parts = [state.0, state.1, state.2, state.3, state.4]
        var index = 0
        while index < 20 {
            result[index] = UInt8(truncatingIfNeeded: parts[index / 4] >> UInt32(24 - 8 * (index % 4)))
            index += 1
        }
        return result
    }

    /// Folds one 64-byte block into `state`; `words` is scratch space of 80 words.
    private static func compress(
        _ block: UnsafeBufferPointer<UInt8>, state: inout (UInt32, UInt32, UInt32, UInt32, UInt32),
        words: UnsafeMutableBufferPointer<UInt32>
    ) {
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
        index = 0
        while index < 80 {
            let mixed: UInt32
            let constant: UInt32
            if index < 20 {
                mixed = (b & c) | (~b & d)
                constant = 0x5A82_7999
            } else if index < 40 {
                mixed = b ^ c ^ d
                constant = 0x6ED9_EBA1
            } else if index < 60 {
                mixed = (b & c) | (b & d) | (c & d)
                constant = 0x8F1B_BCDC
            } else {
                mixed = b ^ c ^ d
                constant = 0xCA62_C1D6
            }
            let next = (a << 5 | a >> 27) &+ mixed &+ e &+ constant &+ words[index]
            e = d
            d = c
            c = b << 30 | b >> 2
            b = a
            a = next
            index += 1
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
