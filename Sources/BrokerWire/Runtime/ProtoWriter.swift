import BrokerModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes protobuf bytes forward from a cursor into memory sized beforehand (by `measure`).
public struct ProtoWriter {
    /// The next byte to write.
    public private(set) var cursor: UnsafeMutablePointer<UInt8>

    /// A writer starting at `start`.
    public init(_ start: UnsafeMutablePointer<UInt8>) {
        cursor = start
    }

    /// One byte.
    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        cursor.pointee = value
        cursor += 1
    }

    /// A varint: 7 bits a byte, low bits first.
    @inline(__always)
    public mutating func varint(_ value: UInt64) {
        // Through a local pointer: the cursor is stored once, not once a byte (a page's timestamps
        // are 8-byte varints, three a sample).
        var value = value
        var next = cursor
        while value >= 0x80 {
            next.pointee = UInt8(truncatingIfNeeded: value) | 0x80
            next += 1
            value >>= 7
        }
        next.pointee = UInt8(truncatingIfNeeded: value)
        cursor = next + 1
    }

    /// A fixed64 (wire type 1) value: 8 bytes, little-endian.
    @inline(__always)
    public mutating func fixed64(_ value: UInt64) {
        UnsafeMutableRawPointer(cursor).storeBytes(of: value.littleEndian, as: UInt64.self)
        cursor += 8
    }

    /// A bytes field's length and contents.
    @inline(__always)
    public mutating func bytes(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress, !source.isEmpty else { return }
            memcpy(cursor, base, source.count)
            cursor += source.count
        }
    }

    /// A string field's length and contents from `spelling`, the catalogue's bytes of a catalogued
    /// identifier (`catalogueSpelling`): the bytes `cString` writes for that identifier's string (no
    /// catalogued identifier holds a NUL; `ReplyEncodingTests` checks).
    @inline(__always)
    public mutating func spelledString(_ spelling: UnsafeBufferPointer<UInt8>) {
        varint(UInt64(spelling.count))
        memcpy(cursor, spelling.baseAddress.unsafelyUnwrapped, spelling.count)
        cursor += spelling.count
    }

    /// The catalogue's bytes of the identifier at catalogue index `index` (static storage).
    @inline(__always)
    public static func catalogueSpelling(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        TypeCatalogue.catalogueSpelling(index: index)
    }

    /// The byte count of the catalogued identifier at catalogue index `index` (its C length).
    @inline(__always)
    public static func catalogueCount(_ index: Int) -> Int {
        TypeCatalogue.catalogueSpelling(index: index).count
    }

    /// A string field's length and contents, cut at the first NUL as protobuf-c's C string is.
    @inline(__always)
    public mutating func cString(_ value: String) {
        cString(value, count: Self.cStringCount(value))
    }

    /// A string field's length and contents when `count` is its `cStringCount`.
    @inline(__always)
    public mutating func cString(_ value: String, count: Int) {
        varint(UInt64(count))
        guard count > 0 else { return }
        let target = cursor
        if value.utf8.withContiguousStorageIfAvailable({ memcpy(target, $0.baseAddress.unsafelyUnwrapped, count) }) == nil {
            var copy = value
            copy.withUTF8 { source in _ = memcpy(target, source.baseAddress.unsafelyUnwrapped, count) }
        }
        cursor += count
    }

    /// The bytes of a varint holding `value`.
    @inline(__always)
    public static func varintSize(_ value: UInt64) -> Int {
        // 1 + (bits above the lowest 7) / 7, and 1 for 0.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// The bytes of a varint holding a non-negative `value`.
    @inline(__always)
    public static func varintSize(_ value: Int) -> Int {
        varintSize(UInt64(truncatingIfNeeded: value))
    }

    /// The UTF-8 bytes of `value` before its first NUL: what protobuf-c packs of a C string.
    @inline(__always)
    public static func cStringCount(_ value: String) -> Int {
        let utf8 = value.utf8
        if let count = utf8.withContiguousStorageIfAvailable({ buffer -> Int in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
            guard let nul = memchr(base, 0, buffer.count) else { return buffer.count }
            return UnsafeRawPointer(nul) - UnsafeRawPointer(base)
        }) {
            return count
        }
        return utf8.firstIndex(of: 0).map { utf8.distance(from: utf8.startIndex, to: $0) } ?? utf8.count
    }
}
