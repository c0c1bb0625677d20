import CSodium

/// Deterministic authenticated encryption (SIV style) of short secrets such as anchor positions.
///
/// The nonce is a keyed BLAKE2b of the associated data and the plaintext, so sealing the same
/// input twice gives the same bytes (an anchor stays put while nothing the app can see changes)
/// and the nonce never repeats for different inputs. Sealing is XChaCha20-Poly1305 (IETF) with
/// that nonce. Both keys are derived from one stored 32-byte key with `crypto_kdf`, so the nonce
/// PRF and the cipher never share a key, and neither shares one with `MessageAuthenticator`.
public struct AnchorCipher: Sendable {
    /// The length of the key passed in (32 bytes), the same as `MessageAuthenticator.keyLength`.
    public static let keyLength = Int(crypto_kdf_KEYBYTES)
    /// The nonce length (24 bytes), written before the ciphertext.
    public static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// The Poly1305 tag length (16 bytes), written after the ciphertext.
    public static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// How many bytes sealing adds to the plaintext: the nonce and the tag.
    public static let overhead = nonceLength + tagLength

    /// `crypto_kdf` context for both subkeys (exactly 8 bytes).
    private static let context = Array("hbanchor".utf8).map { CChar(bitPattern: $0) }
    /// The subkey id of the nonce PRF key.
    private static let nonceKeyID: UInt64 = 1
    /// The subkey id of the encryption key.
    private static let sealKeyID: UInt64 = 2

    private let nonceKey: [UInt8]
    private let sealKey: [UInt8]

    /// Derives the two subkeys; `key` must be exactly `keyLength` bytes (traps otherwise).
    public init(key: [UInt8]) {
        precondition(key.count == Self.keyLength, "AnchorCipher key must be \(Self.keyLength) bytes")
        Sodium.ensureInitialized()
        nonceKey = Self.derive(Int(crypto_generichash_KEYBYTES), id: Self.nonceKeyID, from: key)
        sealKey = Self.derive(Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES), id: Self.sealKeyID, from: key)
    }

    /// nonce ‖ ciphertext ‖ tag for `plaintext`, authenticating `associatedData` too; deterministic.
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        let nonce = nonce(plaintext, associatedData: associatedData)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.tagLength)
        var written: UInt64 = 0
        ciphertext.withUnsafeMutableBufferPointer { output in
            plaintext.withUnsafeBufferPointer { input in
                associatedData.withUnsafeBufferPointer { ad in
                    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                        output.baseAddress!, &written, input.baseAddress, UInt64(input.count),
                        ad.baseAddress, UInt64(ad.count), nil, nonce, sealKey)
                }
            }
        }
        return nonce + ciphertext
    }

    /// The plaintext of `sealed` if its tag verifies under `associatedData` and its nonce is the one
    /// this key derives from that plaintext; nil otherwise (one answer for every kind of failure).
    public func open(_ sealed: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        guard sealed.count >= Self.overhead else { return nil }
        let nonce = Array(sealed[..<Self.nonceLength])
        let ciphertext = Array(sealed[Self.nonceLength...])
        // One spare byte so the buffer has an address even for an empty plaintext.
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - Self.tagLength + 1)
        var length: UInt64 = 0
        let status = plaintext.withUnsafeMutableBufferPointer { output in
            ciphertext.withUnsafeBufferPointer { input in
                associatedData.withUnsafeBufferPointer { ad in
                    crypto_aead_xchacha20poly1305_ietf_decrypt(
                        output.baseAddress!, &length, nil, input.baseAddress!, UInt64(input.count),
                        ad.baseAddress, UInt64(ad.count), nonce, sealKey)
                }
            }
        }
        guard status == 0 else { return nil }
        plaintext.removeLast(plaintext.count - Int(length))
        // The tag already binds nonce and plaintext; checking the nonce is the one derived from them
        // also refuses well-formed anchors sealed under a chosen nonce, keeping the scheme SIV.
        guard ConstantTime.equal(self.nonce(plaintext, associatedData: associatedData), nonce) else { return nil }
        return plaintext
    }

    /// Keyed BLAKE2b, 24 bytes out, over the length-prefixed associated data then the length-prefixed plaintext.
    func nonce(_ plaintext: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        let input = Self.lengthPrefixed(associatedData) + Self.lengthPrefixed(plaintext)
        var out = [UInt8](repeating: 0, count: Self.nonceLength)
        out.withUnsafeMutableBufferPointer { destination in
            input.withUnsafeBufferPointer { source in
                nonceKey.withUnsafeBufferPointer { secret in
                    _ = crypto_generichash(
                        destination.baseAddress!, destination.count, source.baseAddress, UInt64(source.count),
                        secret.baseAddress!, secret.count)
                }
            }
        }
        return out
    }

    /// `bytes` after their length as 8 bytes big-endian, so concatenations cannot be confused.
    private static func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] {
        let length = UInt64(bytes.count)
        return (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> (UInt64($0) * 8)) } + bytes
    }

    /// A `length`-byte subkey number `id` of `key` (`crypto_kdf_derive_from_key`).
    private static func derive(_ length: Int, id: UInt64, from key: [UInt8]) -> [UInt8] {
        var subkey = [UInt8](repeating: 0, count: length)
        subkey.withUnsafeMutableBufferPointer { destination in
            key.withUnsafeBufferPointer { master in
                context.withUnsafeBufferPointer { ctx in
                    _ = crypto_kdf_derive_from_key(destination.baseAddress!, destination.count, id, ctx.baseAddress!, master.baseAddress!)
                }
            }
        }
        return subkey
    }
}
