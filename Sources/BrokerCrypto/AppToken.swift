import CSodium

/// App tokens: generation, hashing for storage, and constant-time verification.
///
/// A token is `hbt_` followed by 32 random bytes in URL-safe base64 without padding (47
/// characters in all). The broker stores only the token's BLAKE2b-256 hash.
public enum AppToken {
    /// The prefix every token starts with.
    public static let prefix = "hbt_"

    /// How many random bytes a token carries.
    public static let randomByteCount = 32

    /// The length in bytes of a token hash.
    public static let hashLength = Int(crypto_generichash_BYTES)

    /// Generates a fresh token from libsodium's CSPRNG.
    public static func generate() -> String {
        Sodium.ensureInitialized()
        var random = [UInt8](repeating: 0, count: randomByteCount)
        random.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        let variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING
        let capacity = sodium_base64_encoded_len(random.count, variant)
        var encoded = [CChar](repeating: 0, count: capacity)
        random.withUnsafeBufferPointer { bin in
            encoded.withUnsafeMutableBufferPointer { b64 in
                _ = sodium_bin2base64(b64.baseAddress!, b64.count, bin.baseAddress, bin.count, variant)
            }
        }
        let body = String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        random.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
        encoded.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
        return prefix + body
    }

    /// The BLAKE2b-256 hash (unkeyed `crypto_generichash`) of the token's UTF-8 bytes.
    public static func hash(_ token: String) -> [UInt8] {
        Sodium.ensureInitialized()
        let input = Array(token.utf8)
        var out = [UInt8](repeating: 0, count: hashLength)
        input.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                _ = crypto_generichash(
                    destination.baseAddress!, destination.count,
                    source.baseAddress, UInt64(source.count),
                    nil, 0)
            }
        }
        return out
    }

    /// Whether `token` hashes to `hash`, compared in constant time; false if the lengths differ.
    public static func matches(_ token: String, hash expected: [UInt8]) -> Bool {
        let actual = hash(token)
        return ConstantTime.equal(actual, expected)
    }

    /// Whether `token` is the token of an app whose stored hash is `storedHash` (nil: no such app),
    /// with the same work either way.
    ///
    /// An unknown app's token is still hashed and compared in constant time, against a stand-in
    /// hash, so a caller timing Hello cannot tell a registered app id from an unregistered one.
    public static func verify(_ token: String, storedHash: [UInt8]?) -> Bool {
        verify(token, storedHash: storedHash, hash: Self.hash, equal: ConstantTime.equal)
    }

    /// Computes the stand-in hash now, so that the first Hello for an unknown app is not the one that pays for it.
    public static func warmUp() {
        _ = absentAppHash
    }

    /// The stand-in compared against for an unknown app: the hash of a random token no app holds, made once per process.
    static let absentAppHash = hash(generate())

    /// `verify(_:storedHash:)` with its hash and comparison passed in, so tests can watch both run.
    static func verify(
        _ token: String, storedHash: [UInt8]?, hash: (String) -> [UInt8], equal: ([UInt8], [UInt8]) -> Bool
    ) -> Bool {
        let matched = equal(hash(token), storedHash ?? absentAppHash)
        // Decided only after the hash and the comparison: a stand-in match still means no app.
        return matched && storedHash != nil
    }
}
