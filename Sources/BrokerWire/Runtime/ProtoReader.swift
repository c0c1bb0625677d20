import BrokerModel

/// Reads protobuf bytes strictly: every reading protobuf-c 1.4 would make differently, or reject,
/// is nil here (the caller then hands the bytes to protobuf-c).
public struct ProtoReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// A reader over `bytes`.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// True when every byte was read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// A varint of at most 10 bytes whose value fits in 64 bits (a 10th byte of 0 or 1).
    ///
    /// protobuf-c keeps the low 64 bits of longer values and reads booleans from every byte; such
    /// bytes are left to it.
    @inline(__always)
    public mutating func varint() -> UInt64? {
        // One byte, the usual case (keys, lengths, small numbers): no loop.
        if index < bytes.count {
            let first = bytes[index]
            if first < 0x80 {
                index &+= 1
                return UInt64(first)
            }
        }
        return varintSlow()
    }

    /// `varint()` past its one-byte case.
    @inline(never)
    private mutating func varintSlow() -> UInt64? {
        // Two bytes (a key past field 15, a length past 127): no loop either.
        if bytes.count &- index >= 2 {
            let first = bytes[index], second = bytes[index &+ 1]
            if first >= 0x80, second < 0x80 {
                index &+= 2
                return UInt64(first & 0x7F) | UInt64(second) &<< 7
            }
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = index
        while position < bytes.count {
            let next = bytes[position]
            position += 1
            if shift == 63, next > 1 { return nil }
            value |= UInt64(next & 0x7F) &<< shift
            if next < 0x80 {
                index = position
                return value
            }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// A field key: a varint of at most 5 bytes, as protobuf-c reads keys.
    @inline(__always)
    public mutating func key() -> UInt64? {
        if index < bytes.count {
            let first = bytes[index]
            if first < 0x80 {
                index &+= 1
                return UInt64(first)
            }
        }
        let start = index
        guard let value = varint(), index - start <= 5 else { return nil }
        return value
    }

    /// A fixed64 (wire type 1) value: 8 bytes, little-endian.
    @inline(__always)
    public mutating func fixed64() -> UInt64? {
        guard bytes.count - index >= 8, let base = bytes.baseAddress else { return nil }
        defer { index += 8 }
        return UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// A length prefix of at most 5 bytes that fits in what is left.
    @inline(__always)
    private mutating func length() -> Int? {
        if index < bytes.count {
            let first = Int(bytes[index])
            if first < 0x80 {
                guard first <= bytes.count &- index &- 1 else { return nil }
                index &+= 1
                return first
            }
        }
        let start = index
        guard let value = varint(), index - start <= 5, value <= UInt64(bytes.count - index) else { return nil }
        return Int(value)
    }

    /// A length-delimited field's bytes, in place.
    @inline(__always)
    public mutating func lengthDelimited() -> UnsafeBufferPointer<UInt8>? {
        guard let count = length() else { return nil }
        defer { index += count }
        return UnsafeBufferPointer(rebasing: bytes[index..<(index + count)])
    }

    /// A reader over a nested message's bytes.
    @inline(__always)
    public mutating func nested() -> ProtoReader? {
        lengthDelimited().map { ProtoReader($0) }
    }

    /// A bytes field.
    @inline(__always)
    public mutating func bytesField() -> [UInt8]? {
        lengthDelimited().map { Array($0) }
    }

    /// A string field holding a type identifier: a catalogued identifier comes back as the
    /// catalogue's own string (nothing allocated), any other as `string()` reads it.
    @inline(__always)
    public mutating func typeIdentifier() -> String? {
        let start = index
        guard let body = lengthDelimited() else { return nil }
        if let known = TypeCatalogue.knownType(utf8: body) { return known.identifier }
        index = start
        return string()
    }

    /// A string field holding a type identifier of a hot request: a catalogued identifier comes
    /// back as its catalogue index (nothing allocated, no string), any other as `string()` reads it
    /// (nil where `string()` is nil). Accepts exactly what `typeIdentifier()` accepts.
    @inline(__always)
    public mutating func resolvedTypeIdentifier() -> ProtoTypeIdentifier? {
        let start = index
        guard let body = lengthDelimited() else { return nil }
        let found = TypeCatalogue.catalogueIndex(utf8: body)
        if found >= 0 { return ProtoTypeIdentifier(catalogueIndex: found) }
        index = start
        return string().map { ProtoTypeIdentifier(uncatalogued: $0) }
    }

    /// A string field that is valid UTF-8 without NUL (protobuf-c's C string would cut or differ).
    @inline(__always)
    public mutating func string() -> String? {
        guard let body = lengthDelimited() else { return nil }
        if body.isEmpty { return "" }
        var ascii = true
        for byte in body {
            if byte == 0 { return nil }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return String(decoding: body, as: UTF8.self) }
        return String(validating: body, as: UTF8.self)
    }
}
