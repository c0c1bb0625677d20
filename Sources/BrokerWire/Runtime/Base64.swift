/// Base64 (RFC 4648) for JSON bytes fields: written standard with padding, read standard or
/// URL-safe with or without padding, as protobuf's JSON readers accept.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in standard base64 with padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt32] = []
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { padding += 1; continue }
            guard padding == 0 else { return nil }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(UInt32(byte - UInt8(ascii: "A")))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(UInt32(byte - UInt8(ascii: "a") + 26))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(UInt32(byte - UInt8(ascii: "0") + 52))
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1, padding <= 2, padding == 0 || (values.count + padding) % 4 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var triple: UInt32 = 0
            for (offset, value) in chunk.enumerated() { triple |= value << (18 - 6 * UInt32(offset)) }
            out.append(UInt8(triple >> 16 & 0xFF))
            if chunk.count > 2 { out.append(UInt8(triple >> 8 & 0xFF)) }
            if chunk.count > 3 { out.append(UInt8(triple & 0xFF)) }
            index += 4
        }
        return out
    }
}
