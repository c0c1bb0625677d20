import BrokerModel

extension SampleValidator {
    /// The uuid lower-cased, if it is a canonical 8-4-4-4-12 hex UUID; INVALID_ARGUMENT otherwise.
    static func canonicalUUID(_ uuid: String) throws(BrokerError) -> String {
        var uuid = uuid
        // A uuid that is already canonical (HealthStore sends them so) comes back as the same string:
        // no array, no new string.
        let shape = uuid.withUTF8 { uuidShape($0) }
        switch shape {
        case .canonical:
            return uuid
        case .upperCaseDigits:
            return uuid.withUTF8 { utf8 in
                String(unsafeUninitializedCapacity: 36) { buffer in
                    for (offset, byte) in utf8.enumerated() { buffer[offset] = lowerHexDigit(byte) ?? byte }
                    return 36
                }
            }
        case .invalid:
            throw .invalidArgument("uuid \"\(MessageText.clipped(uuid))\" is not a canonical UUID (8-4-4-4-12 hex digits)")
        }
    }

    /// How `utf8` spells a UUID: canonically, with some upper-case digits, or not as 8-4-4-4-12 hex digits.
    private static func uuidShape(_ utf8: UnsafeBufferPointer<UInt8>) -> UUIDShape {
        guard utf8.count == 36 else { return .invalid }
        var upperCase = false
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                if byte != UInt8(ascii: "-") { return .invalid }
            } else if let digit = lowerHexDigit(byte) {
                if digit != byte { upperCase = true }
            } else {
                return .invalid
            }
        }
        return upperCase ? .upperCaseDigits : .canonical
    }

    /// See `uuidShape(_:)`.
    private enum UUIDShape {
        case canonical, upperCaseDigits, invalid
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
        // Wrapping differences instead of range patterns, which the optimizer left as calls.
        if byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "a") < 6 { return byte }
        if byte &- UInt8(ascii: "A") < 6 { return byte + 32 }
        return nil
    }
}
