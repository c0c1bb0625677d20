#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel

// The ClientFrames sent per call in the common shape (a Call holding a Ping, AuthorizationStatus or
// EarliestAuthorizedSampleDate request) decoded straight from the bytes, without protobuf-c: no
// unpack into C structs, no arena, no descriptor walk.
//
// It is strict rather than complete: it accepts only bytes whose protobuf-c decoding is
// unambiguous (every field known, with its expected wire type and its shortest key, at most once;
// lengths inside their message; one request case) and returns nil for anything else, which then
// goes through protobuf-c as before. For what it accepts it returns exactly what the protobuf-c
// path returns (WireCodecDirectDecodingTests compare the two on encoded and mutated frames).
extension WireCodec {
    /// The decoded frame when `bytes` has the common shape; nil to decode through protobuf-c.
    static func decodeCommonClientFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> ClientFrame? {
        var reader = DirectReader(bytes)
        // ClientFrame: only `call` (field 1, length-delimited), filling the frame.
        guard reader.byte() == 0x0A, let callLength = reader.length(), callLength == reader.remaining else { return nil }
        var callID: UInt64 = 0
        var timeoutMicros: Int64 = 0
        var initialCredit: UInt32 = 0
        var seen: UInt8 = 0
        var request: Request?
        while !reader.isAtEnd {
            guard let key = reader.byte() else { return nil }
            switch key {
            case 0x08:  // call_id, uint64
                guard seen & 1 == 0, let value = reader.varint() else { return nil }
                seen |= 1
                callID = value
            case 0x10:  // timeout_us, int64
                guard seen & 2 == 0, let value = reader.varint() else { return nil }
                seen |= 2
                timeoutMicros = Int64(bitPattern: value)
            case 0x18:  // initial_credit, uint32
                guard seen & 4 == 0, let value = reader.varint(), value <= UInt64(UInt32.max) else { return nil }
                seen |= 4
                initialCredit = UInt32(value)
            case 0x5A:  // ping (11)
                guard request == nil, let body = reader.lengthDelimited() else { return nil }
                guard let ping = pingRequest(body) else { return nil }
                request = .ping(ping)
            case 0xAA, 0xBA:  // authorization_status (21), earliest_authorized_sample_date (23): two-byte keys
                guard request == nil, reader.byte() == 0x01, let body = reader.lengthDelimited() else { return nil }
                if key == 0xAA {
                    guard let type = authorizationStatusType(body) else { return nil }
                    request = .authorizationStatus(type)
                } else {
                    guard let types = earliestAuthorizedTypes(body) else { return nil }
                    request = .earliestAuthorizedSampleDate(types)
                }
            default:
                return nil
            }
        }
        guard let request else { return nil }
        return .call(Call(callID: callID, timeoutMicros: timeoutMicros, initialCredit: initialCredit, request: request))
    }

    /// PingRequest: delay_us (1, int64), payload (2, bytes).
    private static func pingRequest(_ bytes: UnsafeBufferPointer<UInt8>) -> PingRequest? {
        var reader = DirectReader(bytes)
        var delay: Int64 = 0
        var payload: [UInt8] = []
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x08:
                guard seen & 1 == 0, let value = reader.varint() else { return nil }
                seen |= 1
                delay = Int64(bitPattern: value)
            case 0x12:
                guard seen & 2 == 0, let body = reader.lengthDelimited() else { return nil }
                seen |= 2
                payload = Array(body)
            default:
                return nil
            }
        }
        return PingRequest(delayMicros: delay, payload: payload)
    }

    /// AuthorizationStatusRequest: type (1, string); absent reads as "".
    private static func authorizationStatusType(_ bytes: UnsafeBufferPointer<UInt8>) -> ObjectType? {
        var reader = DirectReader(bytes)
        var type: ObjectType?
        while !reader.isAtEnd {
            guard reader.byte() == 0x0A, type == nil, let body = reader.lengthDelimited() else { return nil }
            type = objectType(body)
        }
        return type ?? ObjectType("")
    }

    /// EarliestAuthorizedSampleDateRequest: types (1, repeated string).
    private static func earliestAuthorizedTypes(_ bytes: UnsafeBufferPointer<UInt8>) -> [ObjectType]? {
        // Counted first, so the array is allocated once.
        var counter = DirectReader(bytes)
        var count = 0
        while !counter.isAtEnd {
            guard counter.byte() == 0x0A, counter.lengthDelimited() != nil else { return nil }
            count += 1
        }
        var reader = DirectReader(bytes)
        var types: [ObjectType] = []
        types.reserveCapacity(count)
        while !reader.isAtEnd {
            guard reader.byte() == 0x0A, let body = reader.lengthDelimited() else { return nil }
            types.append(objectType(body))
        }
        return types
    }

    /// A string field's type, as protobuf-c's copy reads through `objectType(_:)`: up to its first NUL.
    @inline(__always)
    static func objectType(_ field: UnsafeBufferPointer<UInt8>) -> ObjectType {
        let text = cStringBytes(field)
        guard !text.isEmpty else { return ObjectType("") }
        return TypeCatalogue.knownType(utf8: text) ?? ObjectType(String(decoding: text, as: UTF8.self))
    }

    /// A string field's bytes up to its first NUL: what `strlen` sees in protobuf-c's copy.
    ///
    /// Short fields (most of a sample's) are scanned a word at a time in line, long ones by `memchr`.
    @inline(__always)
    static func cStringBytes(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = field.baseAddress else { return field }
        let count = field.count
        guard count <= 64 else {
            guard let nul = memchr(base, 0, count) else { return field }
            return UnsafeBufferPointer(start: base, count: UnsafeRawPointer(nul) - UnsafeRawPointer(base))
        }
        var offset = 0
        while offset + 8 <= count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            // Nonzero exactly when some byte of `word` is 0.
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            offset += 8
        }
        while offset < count {
            if base[offset] == 0 { return UnsafeBufferPointer(start: base, count: offset) }
            offset += 1
        }
        return field
    }
}

/// Reads protobuf bytes forward; every read returns nil instead of running past the end.
struct DirectReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }
    var remaining: Int { bytes.count - index }

    @inline(__always)
    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// A varint of at most 10 bytes, as protobuf-c reads one (bits past 64 dropped).
    @inline(__always)
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = index
        while position < bytes.count, shift < 70 {
            let next = bytes[position]
            position += 1
            value |= UInt64(next & 0x7F) &<< shift
            if next < 0x80 {
                index = position
                return value
            }
            shift += 7
        }
        return nil
    }

    /// A fixed64 (wire type 1) value: 8 bytes, little-endian.
    @inline(__always)
    mutating func fixed64() -> UInt64? {
        guard bytes.count - index >= 8, let base = bytes.baseAddress else { return nil }
        defer { index += 8 }
        return UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// A length prefix of at most 5 bytes that fits in what is left.
    @inline(__always)
    mutating func length() -> Int? {
        let start = index
        guard let value = varint(), index - start <= 5, value <= UInt64(remaining) else { return nil }
        return Int(value)
    }

    /// A length-delimited field's bytes.
    @inline(__always)
    mutating func lengthDelimited() -> UnsafeBufferPointer<UInt8>? {
        guard let count = length() else { return nil }
        defer { index += count }
        return UnsafeBufferPointer(rebasing: bytes[index..<(index + count)])
    }
}
