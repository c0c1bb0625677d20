/// Reads protobuf wire format field by field from borrowed bytes, without decoding into messages.
///
/// Only what healthload needs on its hot path and in its templates: tags, varints, and skipping or
/// slicing the other wire types. Any malformed input makes the reader return nil.
struct ProtobufReader {
    /// Wire type 0: a varint.
    static let varint: UInt8 = 0
    /// Wire type 1: 8 bytes.
    static let fixed64: UInt8 = 1
    /// Wire type 2: a length and that many bytes.
    static let lengthDelimited: UInt8 = 2
    /// Wire type 5: 4 bytes.
    static let fixed32: UInt8 = 5

    /// The bytes being read.
    let bytes: UnsafeRawBufferPointer
    /// The next byte to read.
    private(set) var position = 0

    /// Reads `bytes` from the start.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// True when every byte was read.
    var isAtEnd: Bool { position >= bytes.count }

    /// The next varint, or nil when it runs past the end or over 10 bytes.
    @inline(__always)
    mutating func readVarint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count && shift < 64 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// The next field's number and wire type, or nil at the end or on a malformed tag.
    @inline(__always)
    mutating func readTag() -> (field: UInt64, wireType: UInt8)? {
        guard !isAtEnd, let tag = readVarint(), tag >> 3 != 0 else { return nil }
        return (tag >> 3, UInt8(truncatingIfNeeded: tag & 7))
    }

    /// The range of a length-delimited value's bytes (the reader moves past them), or nil.
    mutating func readLengthDelimited() -> Range<Int>? {
        guard let length = readVarint(), length <= UInt64(bytes.count - position) else { return nil }
        let start = position
        position += Int(length)
        return start..<position
    }

    /// Skips a value of `wireType`; false when it runs past the end or the type is unknown.
    mutating func skip(wireType: UInt8) -> Bool {
        switch wireType {
        case Self.varint: return readVarint() != nil
        case Self.fixed64: return advance(by: 8)
        case Self.lengthDelimited: return readLengthDelimited() != nil
        case Self.fixed32: return advance(by: 4)
        default: return false
        }
    }

    private mutating func advance(by count: Int) -> Bool {
        guard bytes.count - position >= count else { return false }
        position += count
        return true
    }
}
