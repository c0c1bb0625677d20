/// The few protobuf wire-format encodings healthload writes by hand around pre-encoded bytes.
enum ProtobufWriter {
    /// How many bytes `value` takes as a varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    /// Appends `value` as a varint.
    @inline(__always)
    static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(truncatingIfNeeded: rest))
    }

    /// A field's tag byte(s) value: `field << 3 | wireType`.
    static func tag(field: UInt64, wireType: UInt8) -> UInt64 {
        field << 3 | UInt64(wireType)
    }
}
