import BrokerModel

// The ServerFrames the broker sends per call (a status alone, or a Ping, AuthorizationStatus,
// RequestStatus, EarliestAuthorizedSampleDate or EarliestPermittedSampleDate response: the shapes
// WireCodec+DirectEncoding writes) decoded straight from the bytes, without protobuf-c: no unpack
// into C structs, no arena, no descriptor walk.
//
// Like WireCodec+DirectDecoding it is strict rather than complete: it accepts only bytes whose
// protobuf-c decoding is unambiguous (every field known, with its expected wire type and its
// shortest key, a singular field at most once, a status or one response case but not both,
// lengths inside their message) and returns nil for anything else, which then goes through
// protobuf-c. For what it accepts it returns exactly the protobuf-c path's value: enum numbers cut
// to their low 32 bits as protobuf-c stores them, unknown ones mapped as the C path maps them;
// strings cut at their first NUL and invalid UTF-8 repaired; a type sent twice in
// EarliestAuthorizedSampleDate keeping its last date. WireCodecDirectClientCodecTests compare the
// two paths.
extension WireCodec {
    /// The decoded frame when `bytes` is a per-call reply in the common shape; nil for protobuf-c.
    static func decodeReplyServerFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> ServerFrame? {
        var reader = DirectReader(bytes)
        var callID: UInt64 = 0
        var seenCallID = false
        var status: Status?
        var response: Response?
        while !reader.isAtEnd {
            guard let key = reader.byte() else { return nil }
            switch key {
            case 0x08:  // call_id, uint64
                guard !seenCallID, let value = reader.varint() else { return nil }
                seenCallID = true
                callID = value
            case 0x12:  // status (2)
                guard status == nil, response == nil, let body = reader.lengthDelimited(),
                    let decoded = directStatus(body)
                else { return nil }
                status = decoded
            case 0x5A:  // ping (11)
                guard status == nil, response == nil, let body = reader.lengthDelimited(),
                    let ping = directPingResponse(body)
                else { return nil }
                response = .ping(ping)
            case 0xAA, 0xB2, 0xBA, 0xC2:  // fields 21 to 24: two-byte keys
                guard status == nil, response == nil, reader.byte() == 0x01, let body = reader.lengthDelimited(),
                    let decoded = directResponse(twoByteKey: key, body)
                else { return nil }
                response = decoded
            default:
                return nil
            }
        }
        guard status != nil || response != nil else { return nil }
        return ServerFrame(callID: callID, status: status, response: response)
    }

    /// The response case whose two-byte key is `key` 0x01, decoded from `body`.
    ///
    /// authorization_status (21), request_status (22), earliest_authorized_sample_date (23) or
    /// earliest_permitted_sample_date (24).
    @inline(__always)
    private static func directResponse(twoByteKey key: UInt8, _ body: UnsafeBufferPointer<UInt8>) -> Response? {
        switch key {
        case 0xAA:
            guard let value = directEnumResponse(body) else { return nil }
            return .authorizationStatus(AuthorizationStatus(rawValue: value) ?? .notDetermined)
        case 0xB2:
            guard let value = directEnumResponse(body) else { return nil }
            return .requestStatus(RequestStatus(rawValue: value) ?? .unknown)
        case 0xBA:
            guard let dates = directEarliestAuthorizedSampleDates(body) else { return nil }
            return .earliestAuthorizedSampleDate(dates)
        default:
            guard let date = directEarliestPermittedSampleDate(body) else { return nil }
            return .earliestPermittedSampleDate(date)
        }
    }

    /// Status: code (1, enum), domain (2, enum), message (3, string).
    private static func directStatus(_ bytes: UnsafeBufferPointer<UInt8>) -> Status? {
        var reader = DirectReader(bytes)
        var code: Int32 = 0
        var domain: Int32 = 0
        var message = ""
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x08:
                guard seen & 1 == 0, let value = reader.varint() else { return nil }
                seen |= 1
                code = Int32(truncatingIfNeeded: value)
            case 0x10:
                guard seen & 2 == 0, let value = reader.varint() else { return nil }
                seen |= 2
                domain = Int32(truncatingIfNeeded: value)
            case 0x1A:
                guard seen & 4 == 0, let body = reader.lengthDelimited() else { return nil }
                seen |= 4
                message = fieldString(body)
            default:
                return nil
            }
        }
        return Status(code: StatusCode(wireValue: code), domain: DomainCode(wireValue: domain), message: message)
    }

    /// PingResponse: payload (1, bytes), broker_time_us (2, int64), sequence (3, uint64).
    private static func directPingResponse(_ bytes: UnsafeBufferPointer<UInt8>) -> PingResponse? {
        var reader = DirectReader(bytes)
        var payload: [UInt8] = []
        var brokerTime: Int64 = 0
        var sequence: UInt64 = 0
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x0A:
                guard seen & 1 == 0, let body = reader.lengthDelimited() else { return nil }
                seen |= 1
                payload = Array(body)
            case 0x10:
                guard seen & 2 == 0, let value = reader.varint() else { return nil }
                seen |= 2
                brokerTime = Int64(bitPattern: value)
            case 0x18:
                guard seen & 4 == 0, let value = reader.varint() else { return nil }
                seen |= 4
                sequence = value
            default:
                return nil
            }
        }
        return PingResponse(payload: payload, brokerTimeMicros: brokerTime, sequence: sequence)
    }

    /// AuthorizationStatusResponse or RequestStatusResponse: status (1, enum); absent reads as 0.
    ///
    /// The number is what protobuf-c stores: the varint's low 32 bits.
    private static func directEnumResponse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        directOnlyVarint(bytes).map { Int32(truncatingIfNeeded: $0) }
    }

    /// EarliestPermittedSampleDateResponse: date_us (1, int64); absent reads as 0.
    private static func directEarliestPermittedSampleDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        directOnlyVarint(bytes).map { Int64(bitPattern: $0) }
    }

    /// A message whose only field is varint field 1: its raw value, 0 when absent, nil when the
    /// bytes hold anything else (or the field twice).
    private static func directOnlyVarint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var reader = DirectReader(bytes)
        var value: UInt64?
        while !reader.isAtEnd {
            guard reader.byte() == 0x08, value == nil, let raw = reader.varint() else { return nil }
            value = raw
        }
        return value ?? 0
    }

    /// EarliestAuthorizedSampleDateResponse: dates (1, repeated TypeDate).
    ///
    /// Inserted in wire order, so that a type sent twice keeps its last date.
    private static func directEarliestAuthorizedSampleDates(_ bytes: UnsafeBufferPointer<UInt8>) -> TypeDates? {
        // Counted first, so the array is allocated once.
        var counter = DirectReader(bytes)
        var count = 0
        while !counter.isAtEnd {
            guard counter.byte() == 0x0A, counter.lengthDelimited() != nil else { return nil }
            count += 1
        }
        guard count > 0 else { return [:] }
        var entries: [TypeDates.Entry] = []
        entries.reserveCapacity(count)
        var reader = DirectReader(bytes)
        while !reader.isAtEnd {
            guard reader.byte() == 0x0A, let body = reader.lengthDelimited(), let entry = directTypeDate(body) else {
                return nil
            }
            entries.append(entry)
        }
        return TypeDates(entries: entries)
    }

    /// TypeDate: type (1, string), date_us (2, int64); an absent type reads as "".
    @inline(__always)
    private static func directTypeDate(_ bytes: UnsafeBufferPointer<UInt8>) -> TypeDates.Entry? {
        var reader = DirectReader(bytes)
        var type: ObjectType?
        var date: Int64 = 0
        var seenDate = false
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x0A:
                guard type == nil, let body = reader.lengthDelimited() else { return nil }
                type = objectType(body)
            case 0x10:
                guard !seenDate, let raw = reader.varint() else { return nil }
                seenDate = true
                date = Int64(bitPattern: raw)
            default:
                return nil
            }
        }
        return TypeDates.Entry(type: type ?? ObjectType(""), dateMicros: date)
    }
}
