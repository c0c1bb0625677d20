extension SampleValidator {
    /// The uuid lower-cased, if it is a canonical 8-4-4-4-12 hex UUID; INVALID_ARGUMENT otherwise.
    static func canonicalUUID(_ uuid: String) throws(BrokerError) -> String {
        let bytes = Array(uuid.utf8)
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        var valid = bytes.count == 36
        if valid {
            for (offset, byte) in bytes.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    if byte != UInt8(ascii: "-") { valid = false; break }
                    lowered.append(byte)
                } else if let digit = lowerHexDigit(byte) {
                    lowered.append(digit)
                } else {
                    valid = false
                    break
                }
            }
        }
        guard valid else {
            throw .invalidArgument("uuid \"\(MessageText.clipped(uuid))\" is not a canonical UUID (8-4-4-4-12 hex digits)")
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    /// Checks the entry count and the key and value sizes; messages name the key, never the value.
    static func checkMetadata(_ metadata: [String: String]) throws(BrokerError) {
        if metadata.count > maxMetadataEntries {
            throw .invalidArgument("metadata has \(metadata.count) entries; at most \(maxMetadataEntries)")
        }
        for key in metadata.keys.sorted() {
            let keyBytes = key.utf8.count
            if keyBytes == 0 { throw .invalidArgument("metadata key is empty") }
            if keyBytes > maxMetadataKeyBytes {
                throw .invalidArgument("metadata key \"\(MessageText.clipped(key))\" is \(keyBytes) bytes; at most \(maxMetadataKeyBytes)")
            }
            let valueBytes = metadata[key, default: ""].utf8.count
            if valueBytes > maxMetadataValueBytes {
                throw .invalidArgument("metadata value of key \"\(key)\" is \(valueBytes) bytes; at most \(maxMetadataValueBytes)")
            }
        }
    }

    /// The lower-case form of an ASCII hex digit, or nil for any other byte.
    private static func lowerHexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): byte
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte + 32
        default: nil
        }
    }
}
