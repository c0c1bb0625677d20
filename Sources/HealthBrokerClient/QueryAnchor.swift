import Foundation

/// An opaque position in the broker's change history for one app and type, as `HKQueryAnchor`.
///
/// Pass the anchor an anchored query returned to the next one to get only what was added or deleted
/// since. The bytes mean nothing to the app, and the broker refuses an anchor that was altered or that
/// another app or type got (INVALID_ARGUMENT). Store it with `base64` or `Codable` (a base64 string).
public struct QueryAnchor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The anchor as the broker sent it.
    package let bytes: [UInt8]

    /// Wraps anchor bytes from the broker.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The anchor `base64` encodes (standard alphabet, padded, as `base64` writes it); nil for anything else or empty text.
    public init?(base64: String) {
        // Only the canonical form: it is what `base64` writes, and it sidesteps decoders' leniencies.
        guard let data = Data(base64Encoded: base64), !data.isEmpty, data.base64EncodedString() == base64 else { return nil }
        self.bytes = Array(data)
    }

    /// The anchor as base64 text (standard alphabet, padded), for storing between runs.
    public var base64: String {
        Data(bytes).base64EncodedString()
    }

    /// The base64 text.
    public var description: String { base64 }

    /// Decodes an anchor stored as a base64 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let anchor = QueryAnchor(base64: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a base64 query anchor")
        }
        self = anchor
    }

    /// Encodes the anchor as a base64 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }
}
