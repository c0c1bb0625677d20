import BrokerModel
import TestSupport
import Testing
@testable import BrokerWire

/// The client's side of the codec: the per-call ClientFrames must encode to protobuf-c's bytes
/// exactly, and the per-call ServerFrames must decode (strictly, or through protobuf-c for what the
/// strict reader leaves) to protobuf-c's value.
@Suite("The client's frames against protobuf-c")
struct StrictClientCodecTests {
    // MARK: Checks

    /// Checks that `append` encodes `frame` directly to protobuf-c's bytes, and that the bytes decode
    /// back to `frame` (its strings cut at their first NUL); returns the message bytes.
    @discardableResult
    private func checkEncoding(_ frame: ClientFrame, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        var direct: [UInt8] = [1, 2, 3]  // appending after existing output
        WireCodec.append(frame, to: &direct)
        var packed: [UInt8] = [1, 2, 3]
        ProtoReference.appendByProtobufC(frame, to: &packed)
        let same = direct == packed
        #expect(same, "\(Named(frame).testDescription): direct \(direct.prefix(48)), protobuf-c \(packed.prefix(48))",
            sourceLocation: sourceLocation)
        let message = Array(direct.dropFirst(3 + FrameDecoder.headerSize))
        let decoded = try? WireCodec.decodeClientFrame(message[...])
        let unpacked = try? ProtoReference.clientFrameByProtobufC(message[...])
        let expected = Self.asSent(frame)
        #expect(decoded == expected, "\(Named(frame).testDescription)", sourceLocation: sourceLocation)
        #expect(unpacked == expected, "\(Named(frame).testDescription)", sourceLocation: sourceLocation)
        return message
    }

    /// The direct reply decoder's value for `bytes` (nil: left to protobuf-c), checked against
    /// protobuf-c's; and `decodeServerFrame` gives protobuf-c's outcome (the same frame, or the same
    /// error) whatever the bytes.
    @discardableResult
    private func checkDecoding(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ServerFrame? {
        let direct = bytes.withUnsafeBufferPointer { ProtoReference.strictServerFrame($0) }
        let (unpacked, decoded) = serverFrameOutcomes(bytes)
        let agree = decoded == unpacked
        #expect(agree, "bytes \(bytes.prefix(64))", sourceLocation: sourceLocation)
        if let direct {
            let same = unpacked == .success(direct)
            #expect(same, "bytes \(bytes.prefix(64)): direct \(Named(direct).testDescription)", sourceLocation: sourceLocation)
        }
        return direct
    }

    /// `frame` as the broker receives it: type identifiers cut at their first NUL (C strings).
    private static func asSent(_ frame: ClientFrame) -> ClientFrame {
        guard case .call(var call) = frame else { return frame }
        switch call.request {
        case .authorizationStatus(var request)?:
            request.type = cut(ObjectType(request.type)).identifier
            call.request = .authorizationStatus(request)
        case .earliestAuthorizedSampleDate(var request)?:
            request.types = request.types.map { cut(ObjectType($0)).identifier }
            call.request = .earliestAuthorizedSampleDate(request)
        default:
            break
        }
        return .call(call)
    }

    /// `frame` as the client receives it: the status message and type identifiers cut at their first NUL.
    private static func asSent(_ frame: ServerFrame) -> ServerFrame {
        var frame = frame
        if let message = frame.status?.message { frame.status?.message = ProtoReference.cStringPrefix(message) }
        if case .earliestAuthorizedSampleDate(var dates)? = frame.response {
            // (No test set holds two identifiers that cutting makes one.)
            for index in dates.dates.indices { dates.dates[index].type = cut(ObjectType(dates.dates[index].type)).identifier }
            frame.response = .earliestAuthorizedSampleDate(dates)
        }
        return frame
    }

    /// `type` with its identifier cut at the first NUL.
    private static func cut(_ type: ObjectType) -> ObjectType {
        type.identifier.utf8.contains(0) ? ObjectType(ProtoReference.cStringPrefix(type.identifier)) : type
    }

    // MARK: Client frames

    /// Call ids at varint length edges, past 2^63, and the largest.
    private static let callIDs: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, (1 << 63) + 5, .max]
    /// Timeouts: zero (left out), negative (ten bytes), at varint length edges, the extremes.
    private static let timeouts: [Int64] = [0, 1, -1, 127, 128, 1_000_000, 1 << 40, .max, .min]
    /// Credits and stream items: zero (left out), at varint length edges, the largest.
    private static let credits: [UInt32] = [0, 1, 64, 127, 128, .max]

    /// EarliestAuthorizedSampleDate type lists: none, one, many, repeated, empty, unknown, with NULs.
    private static let typeLists: [[ObjectType]] = [
        [], [.stepCount], [.stepCount, .heartRate, .activeEnergyBurned], TypeCatalogue.all.map(\.type),
        [.stepCount, .stepCount], [ObjectType("")], [ObjectType(""), ObjectType("")],
        [ObjectType("nope"), ObjectType(""), .workout], [ObjectType("\u{0}")],
        [ObjectType("with\u{0}nul"), ObjectType("ünïcödé"), ObjectType("H\u{212A}QuantityTypeIdentifierStepCount")],
        [ObjectType(String(repeating: "long", count: 40))],
        Array(repeating: .bodyMass, count: 300),
    ]

    /// Every directly encoded request kind with edge values.
    private static let requests: [Proto.Call.Request] = {
        var requests: [Proto.Call.Request] = [
            .ping(PingRequest()), .ping(PingRequest(delayMicros: 5, payload: [1, 2, 3])),
            .ping(PingRequest(delayMicros: -1, payload: patternBytes(127))),
            .ping(PingRequest(delayMicros: 0, payload: patternBytes(128))),
            .ping(PingRequest(delayMicros: .max, payload: [0])), .ping(PingRequest(delayMicros: .min)),
            .ping(PingRequest(delayMicros: 1_000, payload: patternBytes(20_000))),
        ]
        let statusTypes: [ObjectType] = [
            .stepCount, .activeEnergyBurned, .workout, ObjectType(""), ObjectType("\u{0}"), ObjectType("nope"),
            ObjectType("unknown\u{0}tail"), ObjectType("ß"), ObjectType("H\u{212A}QuantityTypeIdentifierStepCount"),
            ObjectType(String(repeating: "x", count: 200)),
        ]
        requests += statusTypes.map { .authorizationStatus($0) }
        requests += typeLists.map { .earliestAuthorizedSampleDate($0) }
        return requests
    }()

    /// Calls encode to protobuf-c's bytes and decode back.
    @Test func callFramesEncodeDirectlyToProtobufCBytes() {
        // Every request with a few call heads; every call head with a few requests.
        let heads: [(UInt64, Int64, UInt32)] = [(1, 0, 0), (0, 0, 0), (300, 1_000_000, 64), (.max, -1, .max), ((1 << 63) + 5, .min, 128)]
        for request in Self.requests {
            for (callID, timeout, credit) in heads {
                checkEncoding(.call(Call(callID: callID, timeoutMicros: timeout, initialCredit: credit, request: request)))
            }
        }
        let someRequests: [Proto.Call.Request] = [
            .ping(PingRequest()), .ping(PingRequest(delayMicros: -5, payload: [9])), .authorizationStatus(.heartRate),
            .earliestAuthorizedSampleDate([]), .earliestAuthorizedSampleDate([.stepCount, ObjectType("")]),
        ]
        for callID in Self.callIDs {
            for timeout in Self.timeouts {
                for credit in Self.credits {
                    for request in someRequests {
                        checkEncoding(.call(Call(callID: callID, timeoutMicros: timeout, initialCredit: credit, request: request)))
                    }
                }
            }
        }
    }

    /// Cancel and Credit frames encode to protobuf-c's bytes and decode back.
    @Test func cancelAndCreditFramesEncodeDirectlyToProtobufCBytes() {
        for callID in Self.callIDs {
            checkEncoding(.cancel(callID: callID))
            for items in Self.credits {
                checkEncoding(.credit(callID: callID, items: items))
            }
        }
    }

    /// The bytes protobuf-c writes, pinned: proto3 zero scalars and empty singular strings left out,
    /// set oneof cases and empty repeated elements written, negative int64 as ten bytes.
    @Test func protobufCByteShapesArePinned() {
        let cases: [(ClientFrame, [UInt8])] = [
            (.call(Call(callID: 0, request: .ping(PingRequest()))), [0x0A, 0x02, 0x5A, 0x00]),
            (.call(Call(callID: 1, request: .ping(PingRequest()))), [0x0A, 0x04, 0x08, 0x01, 0x5A, 0x00]),
            (.call(Call(callID: 1, timeoutMicros: -1, request: .ping(PingRequest()))),
             [0x0A, 0x0F, 0x08, 0x01, 0x10] + Array(repeating: 0xFF, count: 9) + [0x01, 0x5A, 0x00]),
            (.call(Call(callID: 2, timeoutMicros: 3, initialCredit: 4, request: .ping(PingRequest(delayMicros: 5, payload: [6])))),
             [0x0A, 0x0D, 0x08, 0x02, 0x10, 0x03, 0x18, 0x04, 0x5A, 0x05, 0x08, 0x05, 0x12, 0x01, 0x06]),
            (.call(Call(callID: 1, request: .authorizationStatus(ObjectType("")))), [0x0A, 0x05, 0x08, 0x01, 0xAA, 0x01, 0x00]),
            (.call(Call(callID: 1, request: .authorizationStatus(ObjectType("a\u{0}b")))),
             [0x0A, 0x08, 0x08, 0x01, 0xAA, 0x01, 0x03, 0x0A, 0x01, 0x61]),
            (.call(Call(callID: 1, request: .earliestAuthorizedSampleDate([]))), [0x0A, 0x05, 0x08, 0x01, 0xBA, 0x01, 0x00]),
            (.call(Call(callID: 1, request: .earliestAuthorizedSampleDate([ObjectType(""), ObjectType("b")]))),
             [0x0A, 0x0A, 0x08, 0x01, 0xBA, 0x01, 0x05, 0x0A, 0x00, 0x0A, 0x01, 0x62]),
            (.cancel(callID: 0), [0x12, 0x00]),
            (.cancel(callID: 300), [0x12, 0x03, 0x08, 0xAC, 0x02]),
            (.credit(callID: 0, items: 0), [0x1A, 0x00]),
            (.credit(callID: 0, items: 7), [0x1A, 0x02, 0x10, 0x07]),
            (.credit(callID: 9, items: .max), [0x1A, 0x08, 0x08, 0x09, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        ]
        for (frame, bytes) in cases {
            #expect(checkEncoding(frame) == bytes, "\(frame)")
        }
    }

    /// Requests outside the direct shapes are packed by protobuf-c.
    @Test func otherClientFramesEncodeAsProtobufCDoes() {
        let others: [Proto.Call.Request?] = [
            .hello(HelloRequest(appID: "com.example", appToken: "token", protocolVersion: 1)),
            .pingStream(PingStreamRequest(count: 3, payload: [1])), .requestAuthorization(share: [.stepCount], read: []),
            .requestStatus(share: [.stepCount], read: [.heartRate]), .earliestPermittedSampleDate,
            .readCharacteristics([.dateOfBirth]), .observe([.stepCount]), .adminListApps, nil,
        ]
        for request in others {
            let frame = ClientFrame.call(Call(callID: 1, request: request))
            var appended: [UInt8] = []
            WireCodec.append(frame, to: &appended)
            var packed: [UInt8] = []
            ProtoReference.appendByProtobufC(frame, to: &packed)
            #expect(appended == packed, "\(frame)")
        }
    }

    // MARK: Server frames

    /// Statuses with and without domain and message, every code and every domain.
    private static let statuses: [Status] = [
        .ok, Status(code: .notFound, domain: .noData, message: "x"), Status(code: .cancelled),
        Status(code: .invalidArgument, domain: .invalidArgument, message: String(repeating: "long message ", count: 40)),
        Status(code: .unavailable, domain: .brokerShuttingDown, message: "with\u{0}nul"),
        Status(code: .permissionDenied, domain: .authorizationDenied, message: "ünïcödé ✓"),
        Status(code: .ok, domain: .none, message: "ok with text"), Status(code: .unknown, message: "\u{0}"),
        Status(code: .ok, domain: .protocolError),
    ] + StatusCode.allCases.map { Status(code: $0, message: "\($0)") } + DomainCode.allCases.map { Status(code: .internal, domain: $0) }

    /// EarliestAuthorizedSampleDate answers: none, zero dates, catalogued, unknown, NULs, extremes.
    private static let datedTypeSets: [[ObjectType: Int64]] = [
        [:],
        [.stepCount: 1],
        [.stepCount: 0],
        [ObjectType(""): 0],
        [.stepCount: 1_700_000_000_000_000, .heartRate: 0, .activeEnergyBurned: -5],
        Dictionary(uniqueKeysWithValues: TypeCatalogue.all.enumerated().map { ($1.type, Int64($0) * 1_000_003) }),
        [ObjectType("zzz-unknown"): 7, ObjectType(""): 8, .workout: 9, ObjectType("HKQuantityTypeIdentifierStep"): 10],
        [ObjectType("H\u{212A}QuantityTypeIdentifierStepCount"): 11, .heartRate: 12],
        [ObjectType("ünïcödé"): 13, ObjectType("with\u{0}nul"): 14, ObjectType("a"): 15, ObjectType("wit"): 16],
        [ObjectType(String(repeating: "long", count: 50)): .max, ObjectType("min"): .min],
    ]

    /// Every supported reply shape: a status alone, or one of the direct response cases.
    private static let replyFrames: [ServerFrame] = {
        var frames: [ServerFrame] = []
        for callID in [0, 1, 128, (1 << 63) + 5, .max] as [UInt64] {
            frames += statuses.map { ServerFrame(callID: callID, status: $0) }
            for payload in [[], [0], [1, 2, 3], patternBytes(300)] as [[UInt8]] {
                for time: Int64 in [0, 1, -1, 1_700_000_000_000_000, .min] {
                    for sequence: UInt64 in [0, 5, .max] {
                        frames.append(ServerFrame(
                            callID: callID, response: .ping(PingResponse(payload: payload, brokerTimeMicros: time, sequence: sequence))))
                    }
                }
            }
            frames += AuthorizationStatus.allCases.map { ServerFrame(callID: callID, response: .authorizationStatus($0)) }
            frames += RequestStatus.allCases.map { ServerFrame(callID: callID, response: .requestStatus($0)) }
            frames += datedTypeSets.map { ServerFrame(callID: callID, response: .earliestAuthorizedSampleDate(TypeDates($0))) }
            frames += [0, 1, -1, 946_684_800_000_000, .max, .min].map {
                ServerFrame(callID: callID, response: .earliestPermittedSampleDate($0))
            }
        }
        return frames
    }()

    /// protobuf-c's bytes of `frame` (no header).
    private static func packed(_ frame: ServerFrame) -> [UInt8] {
        var buffer: [UInt8] = []
        ProtoReference.appendByProtobufC(frame, to: &buffer)
        return Array(buffer.dropFirst(FrameDecoder.headerSize))
    }

    /// protobuf-c's bytes of every supported reply decode directly to protobuf-c's value.
    @Test func replyFramesDecodeStrictlyToTheSameValue() {
        for frame in Self.replyFrames {
            let decoded = checkDecoding(Self.packed(frame))
            #expect(decoded == Self.asSent(frame), "\(Named(frame).testDescription)")
        }
    }

    /// Damaged replies either go to protobuf-c or decode directly to its value.
    @Test func mutatedReplyFramesNeverDisagree() {
        var generator = ByteMutator(seed: 0xC11E_47)
        var accepted = 0
        var tried = 0
        for frame in Self.replyFrames {
            let original = Self.packed(frame)
            guard original.count < 2_000 else { continue }
            for _ in 0..<40 {
                tried += 1
                if checkDecoding(generator.mutated(original)) != nil { accepted += 1 }
            }
            // Every field twice (protobuf-c keeps the last scalar, merges messages): repeated keys
            // that single-byte edits rarely make.
            checkDecoding(original + original)
            for _ in 0..<5 {
                checkDecoding(original + generator.mutated(original))
            }
        }
        // Many damaged frames are still well formed: the comparison must have had something to compare.
        #expect(accepted > tried / 20, "\(accepted) of \(tried) mutated frames decoded directly")
    }

    /// Frames outside the direct reply shapes are left to protobuf-c.
    @Test func otherServerFramesAreAgreeWithProtobufC() {
        let hello = HelloResponse(brokerVersion: "1", protocolVersion: 1, maxFrameBytes: 1, brokerTimeMicros: 1, maxCallsInFlight: 1)
        let sample = Sample(uuid: "u", type: .stepCount, startMicros: 1, endMicros: 2, value: .quantity(Quantity(1, "count")))
        let others: [ServerFrame] = [
            ServerFrame(callID: 1),
            ServerFrame(callID: 0),
            ServerFrame(callID: 1, status: .ok, response: .ping(PingResponse())),
            ServerFrame(callID: 1, status: Status(code: .internal), response: .authorizationStatus(.sharingAuthorized)),
            ServerFrame(callID: 1, status: .ok, response: .earliestAuthorizedSampleDate([:])),
            ServerFrame(callID: 1, response: .hello(hello)),
            ServerFrame(callID: 1, response: .requestAuthorization),
            ServerFrame(callID: 1, response: .delete(deleted: 3)),
            ServerFrame(callID: 1, response: .save(saved: 1, unchanged: 0)),
            ServerFrame(callID: 1, response: .readCharacteristics([CharacteristicValue(type: .dateOfBirth, value: "1990-04-01")])),
            ServerFrame(callID: 1, response: .streamItem(.ping(PingResponse(sequence: 1)))),
            ServerFrame(callID: 1, response: .streamItem(.samples([sample]))),
            ServerFrame(callID: 1, response: .streamItem(.observed(type: .stepCount, changedMicros: 5))),
        ]
        for frame in others {
            checkDecoding(Self.packed(frame))
        }
    }

    /// Encodings protobuf-c reads with merging, last-wins or errors are left to it.
    @Test func unusualEncodingsAreAgreeWithProtobufC() {
        let cases: [[UInt8]] = [
            [],
            // call_id twice (protobuf-c keeps the last)
            [0x08, 0x01, 0x08, 0x02, 0x5A, 0x00],
            // status twice (merged)
            [0x12, 0x02, 0x08, 0x05, 0x12, 0x00],
            // ping twice (merged)
            [0x5A, 0x02, 0x10, 0x01, 0x5A, 0x00],
            // two response cases (the last wins)
            [0x5A, 0x00, 0xAA, 0x01, 0x00],
            // a status and a response
            [0x12, 0x00, 0x5A, 0x00],
            // an unknown field in ServerFrame, in Status, in PingResponse, in TypeDate
            [0x08, 0x01, 0x20, 0x01, 0x5A, 0x00],
            [0x12, 0x02, 0x20, 0x01],
            [0x5A, 0x02, 0x20, 0x01],
            [0xBA, 0x01, 0x04, 0x0A, 0x02, 0x18, 0x01],
            // a field other than dates in EarliestAuthorizedSampleDateResponse
            [0xBA, 0x01, 0x02, 0x10, 0x01],
            // status (enum) twice, date_us twice
            [0xAA, 0x01, 0x04, 0x08, 0x01, 0x08, 0x02],
            [0xC2, 0x01, 0x04, 0x08, 0x01, 0x08, 0x02],
            [0xBA, 0x01, 0x06, 0x0A, 0x04, 0x10, 0x01, 0x10, 0x02],
            // a type twice in one TypeDate
            [0xBA, 0x01, 0x06, 0x0A, 0x04, 0x0A, 0x00, 0x0A, 0x00],
            // a message field in Status twice
            [0x12, 0x04, 0x1A, 0x00, 0x1A, 0x00],
            // a non-minimal key
            [0x88, 0x00, 0x01, 0x5A, 0x00],
            [0xAA, 0x81, 0x00, 0x00],
            // wrong wire types
            [0x0A, 0x00, 0x5A, 0x00],
            [0x58, 0x00],
            [0x12, 0x02, 0x0A, 0x00],
            [0xAA, 0x01, 0x02, 0x09, 0x00],
            // truncated
            [0x5A, 0x02, 0x10],
            [0x08],
            [0x08, 0x80],
            [0x12, 0x03, 0x1A, 0x05, 0x61],
            // a varint of 11 bytes
            [0x08] + Array(repeating: 0xFF, count: 10) + [0x01, 0x5A, 0x00],
            // stream_item and the other cases
            [0x1A, 0x00],
            [0x52, 0x00],
            [0xA2, 0x01, 0x00],
            [0xCA, 0x01, 0x00],
        ]
        for bytes in cases {
            checkDecoding(bytes)
        }
    }

    /// Unusual but unambiguous encodings decode directly, to protobuf-c's value.
    @Test func oddButAcceptedEncodingsAgree() {
        let cases: [[UInt8]] = [
            // fields out of order
            [0x5A, 0x00, 0x08, 0x05],
            [0x12, 0x04, 0x10, 0x02, 0x08, 0x07, 0x08, 0x03],
            // a 10-byte varint call id, a non-minimal varint value
            [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x12, 0x00],
            [0x08, 0x81, 0x00, 0x12, 0x00],
            // a 10-byte varint whose last byte carries bits past 64
            [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x12, 0x00],
            // status codes and domains unknown, negative, past 32 bits
            [0x12, 0x04, 0x08, 0x63, 0x10, 0x63],
            [0x12, 0x0B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            [0x12, 0x08, 0x08, 0x85, 0x80, 0x80, 0x80, 0x10, 0x10, 0x01],
            [0x12, 0x06, 0x08, 0x85, 0x80, 0x80, 0x80, 0x10],
            // enum responses unknown, negative, past 32 bits, absent
            [0xAA, 0x01, 0x02, 0x08, 0x09],
            [0xB2, 0x01, 0x02, 0x08, 0x09],
            [0xAA, 0x01, 0x06, 0x08, 0x82, 0x80, 0x80, 0x80, 0x10],
            [0xB2, 0x01, 0x0B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            [0xAA, 0x01, 0x00],
            [0xB2, 0x01, 0x00],
            [0xC2, 0x01, 0x00],
            // a status message with invalid UTF-8, with a NUL
            [0x12, 0x04, 0x1A, 0x02, 0xFF, 0xFE],
            [0x12, 0x05, 0x1A, 0x03, 0x61, 0x00, 0x62],
            // dates: an empty TypeDate, a type sent twice (the last date stays), invalid UTF-8, a NUL
            [0xBA, 0x01, 0x02, 0x0A, 0x00],
            [0xBA, 0x01, 0x0A, 0x0A, 0x03, 0x0A, 0x01, 0x61, 0x0A, 0x03, 0x0A, 0x01, 0x61],
            [0xBA, 0x01, 0x0E, 0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x01, 0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x02],
            [0xBA, 0x01, 0x06, 0x0A, 0x04, 0x0A, 0x02, 0xFF, 0xFE],
            [0xBA, 0x01, 0x07, 0x0A, 0x05, 0x0A, 0x03, 0x61, 0x00, 0x62],
            [0xBA, 0x01, 0x04, 0x0A, 0x02, 0x10, 0x05, 0x08, 0x01],
            // a ping with every field out of order
            [0x5A, 0x07, 0x18, 0x01, 0x10, 0x02, 0x0A, 0x01, 0x00],
        ]
        for bytes in cases {
            checkDecoding(bytes)
        }
    }

    /// Sample pages still reach their own direct decoder, not the reply decoder.
    @Test func decodeServerFrameDecodesSamplePagesStrictly() {
        let sample = Sample(uuid: "u", type: .stepCount, startMicros: 1, endMicros: 2, value: .quantity(Quantity(1, "count")))
        let frame = ServerFrame(callID: 4, response: .streamItem(.samples([sample])))
        let bytes = Self.packed(frame)
        #expect(bytes.withUnsafeBufferPointer { ProtoReference.strictServerFrame($0) } == frame)
        #expect((try? WireCodec.decodeServerFrame(bytes[...])) == frame)
    }
}
