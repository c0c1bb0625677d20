import BrokerModel

/// Name-based (RFC 4122 version 5, SHA-1) UUIDs, so that a sample without a UUID gets the same one every time.
enum SampleUUID {
    /// The namespace of UUIDs derived from the content of an imported line.
    static let importNamespace: [UInt8] = bytes(of: "3f0c1a52-6d1e-4c8b-9a57-2b8e4d6f7a10")!
    /// The namespace of UUIDs of generated demo samples.
    static let demoNamespace: [UInt8] = bytes(of: "a7d3e9b4-1c2f-4e6a-8b5d-9f0e3c7a2d61")!

    /// The version 5 UUID of `name` in `namespace`, lower-case 8-4-4-4-12.
    static func v5(namespace: [UInt8], name: String) -> String {
        var input = namespace
        input.append(contentsOf: name.utf8)
        var hash = SHA1.digest(input)
        hash.removeLast(4)
        hash[6] = hash[6] & 0x0F | 0x50
        hash[8] = hash[8] & 0x3F | 0x80
        return format(hash)
    }

    /// The UUID of an imported sample that came without one: derived from everything it holds.
    static func derived(from sample: Sample) -> String {
        v5(namespace: importNamespace, name: contentName(of: sample))
    }

    /// The UUID of a generated demo sample: derived from the seed, its type and its start.
    static func demo(seed: UInt64, type: ObjectType, startMicros: Int64) -> String {
        v5(namespace: demoNamespace, name: "\(seed)/\(type.identifier)/\(startMicros)")
    }

    /// A canonical text of a sample's content (type, dates, value, metadata; not its UUID or source).
    static func contentName(of sample: Sample) -> String {
        var parts = [sample.type.identifier, String(sample.startMicros), String(sample.endMicros)]
        switch sample.value {
        case .quantity(let quantity):
            parts.append("quantity \(quantity.value) \(quantity.unit)")
        case .category(let value):
            parts.append("category \(value)")
        case .workout(let workout):
            parts.append("workout \(workout.activityType) \(workout.durationMicros)")
            parts.append(workout.totalEnergy.map { "energy \($0.value) \($0.unit)" } ?? "energy -")
            parts.append(workout.totalDistance.map { "distance \($0.value) \($0.unit)" } ?? "distance -")
        case .correlation(let members):
            // Members carry uuids of their own (derived from their content first).
            parts.append(contentsOf: members.map { "object \($0.uuid)" })
        }
        for key in sample.metadata.keys.sorted() {
            parts.append("metadata \(key.utf8.count):\(key)=\(sample.metadata[key, default: ""])")
        }
        return parts.joined(separator: "\n")
    }

    /// The 16 bytes of a canonical UUID text; nil when it is not 8-4-4-4-12 hex digits.
    static func bytes(of text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 36 else { return nil }
        var result: [UInt8] = []
        var high: UInt8?
        for (offset, digit) in digits.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard digit == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = hexValue(digit) else { return nil }
            if let upper = high {
                result.append(upper << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return result
    }

    /// `bytes` (16 of them) as lower-case 8-4-4-4-12 text.
    static func format(_ bytes: [UInt8]) -> String {
        let hex: [UInt8] = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]  // 0-9 a-f
        var text = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        var index = 0
        while index < bytes.count {
            if index == 4 || index == 6 || index == 8 || index == 10 { position += 1 }
            text[position] = hex[Int(bytes[index] >> 4)]
            text[position + 1] = hex[Int(bytes[index] & 0x0F)]
            position += 2
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
