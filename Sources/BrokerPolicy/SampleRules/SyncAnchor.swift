public import BrokerModel

/// The opaque anchor of an anchored query: a position in the change sequence, bound to app and type.
///
/// Version 1 (here) shows the sequence in clear beside a MAC; it is still accepted so that apps
/// holding one keep working. Version 2 (`SyncAnchor+Sealed`) encrypts the position.
public enum SyncAnchor {
    /// The version byte of version 1 (clear sequence + MAC) anchors, written first.
    public static let version: UInt8 = 1
    /// The version byte and the 8-byte sequence before the tag.
    static let headerLength = 9
    /// The tag lengths accepted (libsodium MACs are 32 bytes; anything from 16 to 64 is allowed through to `verify`).
    static let tagLengths = 16...64

    /// Opaque anchor bytes: version byte 1, the sequence (8 bytes big-endian), then a MAC over (version, sequence, app id, type) made by `mac` (the caller passes a libsodium HMAC).
    public static func encode(sequence: Int64, appID: String, type: ObjectType, mac: ([UInt8]) -> [UInt8]) -> [UInt8] {
        let header = header(sequence: sequence)
        return header + mac(macInput(header: header, appID: appID, type: type))
    }

    /// Checks length, version and MAC (`verify(message, tag)`); anything wrong → INVALID_ARGUMENT "invalid anchor" (the same message whether forged or from another app or type). Returns the sequence.
    ///
    /// `verify` must compare the tag in constant time and reject a tag of the wrong length.
    public static func decode(_ anchor: [UInt8], appID: String, type: ObjectType, verify: ([UInt8], [UInt8]) -> Bool) throws(BrokerError) -> Int64 {
        guard tagLengths.contains(anchor.count - headerLength), anchor[0] == version else { throw invalid }
        let header = Array(anchor[0..<headerLength])
        let tag = Array(anchor[headerLength...])
        guard verify(macInput(header: header, appID: appID, type: type), tag) else { throw invalid }
        var sequence: UInt64 = 0
        for byte in header[1...] { sequence = sequence << 8 | UInt64(byte) }
        return Int64(bitPattern: sequence)
    }

    /// The one error for every bad anchor, whatever its version and whatever is wrong with it.
    public static let invalid = BrokerError.invalidArgument("invalid anchor")

    /// The version byte and the sequence, big-endian.
    static func header(sequence: Int64) -> [UInt8] {
        let bits = UInt64(bitPattern: sequence)
        return [version] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (UInt64($0) * 8)) }
    }

    /// What the MAC covers: the header, then the app id and the type identifier, each length-prefixed (4 bytes big-endian).
    ///
    /// Version 2 uses the same bytes, with the version byte alone as the header, as AEAD associated data.
    static func macInput(header: [UInt8], appID: String, type: ObjectType) -> [UInt8] {
        var message = header
        for field in [appID, type.identifier] {
            let bytes = Array(field.utf8)
            let length = UInt32(truncatingIfNeeded: bytes.count)
            message += (0..<4).reversed().map { UInt8(truncatingIfNeeded: length >> (UInt32($0) * 8)) }
            message += bytes
        }
        return message
    }
}
