#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel

// The ClientFrames a client sends per call (a Call holding a Ping, AuthorizationStatus or
// EarliestAuthorizedSampleDate request, a Cancel, a Credit) encoded straight into the output
// buffer, without protobuf-c: no C structs, no scratch C strings, no packed-size pass over
// descriptors. The bytes are exactly protobuf-c's (fields in number order; proto3 zero scalars and
// empty singular strings and bytes left out; a set oneof case always written, even empty; every
// element of a repeated string written, even empty; strings cut at their first NUL as a C string
// is; int64 values below zero as 10-byte varints). WireCodecDirectClientCodecTests compare the two
// encoders.
extension WireCodec {
    /// True when `append(_:to:)` encodes `frame` directly rather than through protobuf-c.
    static func encodesDirectly(_ frame: ClientFrame) -> Bool {
        switch frame {
        case .call(let call):
            switch call.request {
            case .ping, .authorizationStatus, .earliestAuthorizedSampleDate: return true
            default: return false
            }
        case .cancel, .credit:
            return true
        }
    }

    /// Appends `frame` (one of the shapes `encodesDirectly` accepts) as a whole frame.
    static func appendDirectly(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        switch frame {
        case .call(let call):
            appendCallDirectly(call, to: &buffer)
        case .cancel(let callID):
            // ClientFrame.cancel (2): Cancel{call_id (1)}.
            let size = uint64FieldSize(callID)
            appendDirectClientFrame(kindKey: 0x12, kindSize: size, to: &buffer) { out in
                out.uint64Field(0x08, callID)
            }
        case .credit(let callID, let items):
            // ClientFrame.credit (3): Credit{call_id (1), items (2)}.
            let size = uint64FieldSize(callID) + uint64FieldSize(UInt64(items))
            appendDirectClientFrame(kindKey: 0x1A, kindSize: size, to: &buffer) { out in
                out.uint64Field(0x08, callID)
                out.uint64Field(0x10, UInt64(items))
            }
        }
    }

    /// Appends a ClientFrame holding `call` (Ping, AuthorizationStatus or EarliestAuthorizedSampleDate).
    private static func appendCallDirectly(_ call: Call, to buffer: inout [UInt8]) {
        let headSize = uint64FieldSize(call.callID) + int64FieldSize(call.timeoutMicros)
            + uint64FieldSize(UInt64(call.initialCredit))
        switch call.request {
        case .ping(let ping):
            // Call.ping (11): PingRequest{delay_us (1, int64), payload (2, bytes)}.
            let delay = ping.delayMicros
            ping.payload.withUnsafeBufferPointer { payload in
                let requestSize = int64FieldSize(delay) + bytesFieldSize(payload.count)
                appendCall(call, headSize: headSize, requestField: 11, requestSize: requestSize, to: &buffer) { out in
                    out.int64Field(0x08, delay)
                    if !payload.isEmpty {
                        out.byte(0x12)
                        out.varint(payload.count)
                        out.bytes(payload)
                    }
                }
            }
        case .authorizationStatus(let type):
            // Call.authorization_status (21): AuthorizationStatusRequest{type (1, string)}.
            let typeBytes = typeFieldByteCount(type)
            appendCall(call, headSize: headSize, requestField: 21, requestSize: bytesFieldSize(typeBytes), to: &buffer) {
                out in
                if typeBytes > 0 {
                    out.byte(0x0A)
                    out.varint(typeBytes)
                    out.typeIdentifier(type, byteCount: typeBytes)
                }
            }
        case .earliestAuthorizedSampleDate(let types):
            // Call.earliest_authorized_sample_date (23): EarliestAuthorizedSampleDateRequest{types (1,
            // repeated string)}: every element written, an empty one as a key and a zero length.
            var requestSize = 0
            for type in types {
                let typeBytes = typeFieldByteCount(type)
                requestSize += 1 + varintSize(typeBytes) + typeBytes
            }
            appendCall(call, headSize: headSize, requestField: 23, requestSize: requestSize, to: &buffer) { out in
                for type in types {
                    let typeBytes = typeFieldByteCount(type)
                    out.byte(0x0A)
                    out.varint(typeBytes)
                    out.typeIdentifier(type, byteCount: typeBytes)
                }
            }
        default:
            preconditionFailure("appendDirectly does not encode \(call.request.methodName)")
        }
    }

    /// Appends a ClientFrame holding `call` with the request that `writeRequest` writes.
    ///
    /// ClientFrame.call (1): `call`'s call_id, timeout_us and initial_credit (`headSize` bytes),
    /// then request case `requestField` holding the `requestSize` bytes `writeRequest` writes.
    @inline(__always)
    private static func appendCall(
        _ call: Call, headSize: Int, requestField: UInt64, requestSize: Int, to buffer: inout [UInt8],
        _ writeRequest: (inout DirectWriter) -> Void
    ) {
        let callSize = headSize + varintSize(requestField << 3) + varintSize(requestSize) + requestSize
        appendDirectClientFrame(kindKey: 0x0A, kindSize: callSize, to: &buffer) { out in
            out.uint64Field(0x08, call.callID)
            out.int64Field(0x10, call.timeoutMicros)
            out.uint64Field(0x18, UInt64(call.initialCredit))
            out.key(field: requestField)
            out.varint(requestSize)
            let requestStart = out.cursor
            writeRequest(&out)
            precondition(
                out.cursor == requestStart + requestSize,
                "direct encoding wrote a request of \(out.cursor - requestStart) bytes, announced \(requestSize)")
        }
    }

    /// Appends a whole ClientFrame: the header, then one kind case.
    ///
    /// The kind case has the one-byte key `kindKey` and holds the `kindSize` bytes `writeKind`
    /// writes; a precondition checks that exactly the announced bytes were written.
    @inline(__always)
    private static func appendDirectClientFrame(
        kindKey: UInt8, kindSize: Int, to buffer: inout [UInt8], _ writeKind: (inout DirectWriter) -> Void
    ) {
        let size = 1 + varintSize(kindSize) + kindSize
        let total = FrameDecoder.headerSize + size
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            let start = scratch.baseAddress.unsafelyUnwrapped
            FrameHeader.write(length: size, to: start)
            var out = DirectWriter(cursor: start + FrameDecoder.headerSize)
            out.byte(kindKey)
            out.varint(kindSize)
            writeKind(&out)
            precondition(out.cursor == start + total, "direct encoding wrote \(out.cursor - start) bytes, announced \(total)")
            buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: total))
        }
    }

    /// A varint field with a one-byte key (uint64, uint32), left out when 0.
    @inline(__always)
    private static func uint64FieldSize(_ value: UInt64) -> Int {
        value == 0 ? 0 : 1 + varintSize(value)
    }

    /// How many bytes of `type`'s identifier protobuf-c sends.
    ///
    /// The catalogue's spelling when the type has it, else the identifier's UTF-8 up to its first
    /// NUL (a C string's `strlen`).
    @inline(__always)
    private static func typeFieldByteCount(_ type: ObjectType) -> Int {
        if let spelling = TypeCatalogue.catalogueSpelling(of: type) { return spelling.count }
        return cStringByteCount(type.identifier)
    }

    /// The UTF-8 bytes of `string` before its first NUL.
    private static func cStringByteCount(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, let nul = memchr(base, 0, utf8.count) else { return utf8.count }
            return UnsafeRawPointer(nul) - UnsafeRawPointer(base)
        }
    }
}

extension DirectWriter {
    /// A varint field with a one-byte key (uint64, uint32), left out when 0.
    @inline(__always)
    mutating func uint64Field(_ key: UInt8, _ value: UInt64) {
        guard value != 0 else { return }
        byte(key)
        varint(value)
    }

    /// Writes the first `byteCount` bytes of `type`'s identifier.
    ///
    /// `byteCount` is `typeFieldByteCount(type)`: the bytes come from the catalogue's spelling when
    /// the type has it, else from the identifier's UTF-8.
    @inline(__always)
    mutating func typeIdentifier(_ type: ObjectType, byteCount: Int) {
        guard byteCount > 0 else { return }
        if let spelling = TypeCatalogue.catalogueSpelling(of: type) {
            bytes(UnsafeBufferPointer(rebasing: spelling[..<byteCount]))
            return
        }
        var identifier = type.identifier
        identifier.withUTF8 { utf8 in
            self.bytes(UnsafeBufferPointer(rebasing: utf8[..<byteCount]))
        }
    }
}
