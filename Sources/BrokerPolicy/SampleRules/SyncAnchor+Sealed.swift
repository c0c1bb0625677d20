public import BrokerModel

/// Format version 2: the position sealed with a deterministic AEAD, so the anchor shows nothing but its app-bound identity.
///
/// Layout: version byte 2, then whatever `seal` returns for the 8-byte big-endian position (the
/// caller passes libsodium's deterministic XChaCha20-Poly1305 from `BrokerCrypto`). The associated
/// data binds the version, the app id and the type, so an anchor opens only for the app and type
/// it was made for. The plaintext has a fixed size, so every anchor has the same length.
extension SyncAnchor {
    /// The version byte of sealed anchors.
    public static let sealedVersion: UInt8 = 2
    /// The length of the sealed plaintext: the position, 8 bytes big-endian.
    public static let positionLength = 8

    /// Version byte 2 followed by `seal(position bytes, associated data)`.
    public static func seal(position: Int64, appID: String, type: ObjectType, seal: ([UInt8], [UInt8]) -> [UInt8]) -> [UInt8] {
        [sealedVersion] + seal(positionBytes(position), associatedData(appID: appID, type: type))
    }

    /// Checks the version byte, lets `open(sealed, associated data)` authenticate and decrypt, and
    /// returns the position; every failure is `invalid`, the same error however the anchor is wrong.
    public static func open(_ anchor: [UInt8], appID: String, type: ObjectType, open: ([UInt8], [UInt8]) -> [UInt8]?) throws(BrokerError) -> Int64 {
        guard anchor.first == sealedVersion,
            let plaintext = open(Array(anchor.dropFirst()), associatedData(appID: appID, type: type)),
            plaintext.count == positionLength
        else { throw invalid }
        var position: UInt64 = 0
        for byte in plaintext { position = position << 8 | UInt64(byte) }
        return Int64(bitPattern: position)
    }

    /// The position as 8 bytes, big-endian.
    static func positionBytes(_ position: Int64) -> [UInt8] {
        let bits = UInt64(bitPattern: position)
        return (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (UInt64($0) * 8)) }
    }

    /// What the AEAD authenticates besides the position: version byte 2, then the app id and the
    /// type identifier, each length-prefixed so that no two (app, type) pairs give the same bytes.
    static func associatedData(appID: String, type: ObjectType) -> [UInt8] {
        macInput(header: [sealedVersion], appID: appID, type: type)
    }
}
