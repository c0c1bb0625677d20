import CSodium

/// HMAC-SHA512-256 (libsodium `crypto_auth`) under one secret key, e.g. for signing sync anchors.
public struct MessageAuthenticator: Sendable {
    /// The key length `crypto_auth` requires (32 bytes).
    public static let keyLength = Int(crypto_auth_KEYBYTES)

    /// The length of a tag (32 bytes).
    public static let tagLength = Int(crypto_auth_BYTES)

    private let key: [UInt8]

    /// Creates an authenticator; `key` must be exactly `keyLength` bytes (traps otherwise).
    ///
    /// Callers loading a stored key should check its length against `keyLength` first and treat
    /// a mismatch as a corrupt store rather than pass it here.
    public init(key: [UInt8]) {
        precondition(key.count == Self.keyLength, "MessageAuthenticator key must be \(Self.keyLength) bytes")
        Sodium.ensureInitialized()
        self.key = key
    }

    /// Generates a fresh random key of `keyLength` bytes (`crypto_auth_keygen`).
    public static func generateKey() -> [UInt8] {
        Sodium.ensureInitialized()
        var key = [UInt8](repeating: 0, count: keyLength)
        key.withUnsafeMutableBufferPointer { crypto_auth_keygen($0.baseAddress!) }
        return key
    }

    /// The tag for `message`.
    public func tag(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.tagLength)
        out.withUnsafeMutableBufferPointer { destination in
            message.withUnsafeBufferPointer { source in
                key.withUnsafeBufferPointer { secret in
                    _ = crypto_auth(destination.baseAddress!, source.baseAddress, UInt64(source.count), secret.baseAddress!)
                }
            }
        }
        return out
    }

    /// Whether `tag` is this key's tag for `message` (constant time; false for a wrong length).
    public func verify(_ tag: [UInt8], for message: [UInt8]) -> Bool {
        guard tag.count == Self.tagLength else { return false }
        return tag.withUnsafeBufferPointer { candidate in
            message.withUnsafeBufferPointer { source in
                key.withUnsafeBufferPointer { secret in
                    crypto_auth_verify(candidate.baseAddress!, source.baseAddress, UInt64(source.count), secret.baseAddress!) == 0
                }
            }
        }
    }
}
