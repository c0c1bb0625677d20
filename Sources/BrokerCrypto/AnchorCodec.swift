public import BrokerModel
import BrokerPolicy

/// Makes and reads anchored-query anchors under the broker's stored anchor key: the one entry point the server calls.
///
/// New anchors are version 2 (`SyncAnchor+Sealed`): the position encrypted and bound to app and
/// type, identical for identical inputs, `anchorLength` bytes whatever the position. Version 1
/// anchors (the clear sequence with an HMAC, `SyncAnchor`) made under the same key are still read,
/// so apps that saved one before the upgrade carry on from where they were.
public struct AnchorCodec: Sendable {
    /// The length of every anchor `encode` makes (49 bytes): version, nonce, sealed position, tag.
    public static let anchorLength = 1 + SyncAnchor.positionLength + AnchorCipher.overhead

    private let cipher: AnchorCipher
    private let legacy: MessageAuthenticator

    /// A codec under the stored anchor key; `key` must be `MessageAuthenticator.keyLength` (32) bytes (traps otherwise).
    public init(key: [UInt8]) {
        cipher = AnchorCipher(key: key)
        legacy = MessageAuthenticator(key: key)
    }

    /// The version 2 anchor for `position`, bound to `appID` and `type`.
    public func encode(position: Int64, appID: String, type: ObjectType) -> [UInt8] {
        SyncAnchor.seal(position: position, appID: appID, type: type) { plaintext, associatedData in
            cipher.seal(plaintext, associatedData: associatedData)
        }
    }

    /// The position in `anchor` if this key made it for `appID` and `type` (version 2, or version 1
    /// whose sequence is returned as the position); `SyncAnchor.invalid` for anything else.
    public func decode(_ anchor: [UInt8], appID: String, type: ObjectType) throws(BrokerError) -> Int64 {
        switch anchor.first {
        case SyncAnchor.sealedVersion:
            // Every v2 anchor has one length; refuse others before any crypto runs.
            guard anchor.count == Self.anchorLength else { throw SyncAnchor.invalid }
            return try SyncAnchor.open(anchor, appID: appID, type: type) { sealed, associatedData in
                cipher.open(sealed, associatedData: associatedData)
            }
        case SyncAnchor.version:
            return try SyncAnchor.decode(anchor, appID: appID, type: type) { message, tag in
                legacy.verify(tag, for: message)
            }
        default:
            throw SyncAnchor.invalid
        }
    }
}
