import BrokerModel
import Testing
@testable import BrokerWire

/// The generated encoding of the per-call ServerFrames (and the broker's reply shortcuts) must give
/// protobuf-c's bytes exactly.
@Suite("Reply encoding against protobuf-c")
struct ReplyEncodingTests {
    /// Both encoders' bytes for `frame`: (direct through `append`, protobuf-c).
    private func bothEncodings(_ frame: ServerFrame) -> (direct: [UInt8], packed: [UInt8]) {
        var direct: [UInt8] = [1, 2, 3]  // appending after existing output
        WireCodec.append(frame, to: &direct)
        var packed: [UInt8] = [1, 2, 3]
        ProtoReference.appendByProtobufC(frame, to: &packed)
        return (direct, packed)
    }

    private static let callIDs: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, .max]

    private static let statuses: [Status?] = [
        nil, .ok, Status(code: .notFound, domain: .noData, message: "x"),
        Status(code: .invalidArgument, domain: .invalidArgument, message: String(repeating: "long message ", count: 40)),
        Status(code: .unavailable, domain: .brokerShuttingDown, message: "with\u{0}nul"),
        Status(code: .permissionDenied, domain: .authorizationDenied, message: "ünïcödé ✓"),
        Status(code: .cancelled, domain: .none, message: ""),
        Status(code: .unknown, domain: .none, message: "\u{0}"),
    ]

    @Test func statusFramesMatchProtobufC() {
        for callID in Self.callIDs {
            for status in Self.statuses {
                let frame = ServerFrame(callID: callID, status: status)
                let (direct, packed) = bothEncodings(frame)
                #expect(direct == packed, "\(frame)")
            }
        }
    }

    @Test func pingFramesMatchProtobufC() {
        let payloads: [[UInt8]] = [[], [0], [1, 2, 3], patternBytes(127), patternBytes(128), patternBytes(20_000)]
        let times: [Int64] = [0, 1, -1, 1_700_000_000_000_000, .max, .min]
        for callID in Self.callIDs {
            for payload in payloads {
                for time in times {
                    for sequence: UInt64 in [0, 5, .max] {
                        let response = PingResponse(payload: payload, brokerTimeMicros: time, sequence: sequence)
                        let frame = ServerFrame(callID: callID, response: .ping(response))
                        let (direct, packed) = bothEncodings(frame)
                        #expect(direct == packed, "ping of \(payload.count) bytes, time \(time), sequence \(sequence)")
                    }
                    if payload.count < 200 {
                        var reply: [UInt8] = [9]
                        WireCodec.appendPingReply(callID: callID, payload: payload, brokerTimeMicros: time, to: &reply)
                        var packed: [UInt8] = [9]
                        ProtoReference.appendByProtobufC(
                            ServerFrame(callID: callID, response: .ping(PingResponse(payload: payload, brokerTimeMicros: time))),
                            to: &packed)
                        #expect(reply == packed)
                    }
                }
            }
        }
    }

    @Test func enumAndDateFramesMatchProtobufC() {
        var responses: [Proto.ServerFrame.Response] = AuthorizationStatus.allCases.map { .authorizationStatus($0) }
        responses += RequestStatus.allCases.map { .requestStatus($0) }
        responses += [0, 1, -1, 946_684_800_000_000, .max, .min].map { .earliestPermittedSampleDate($0) }
        for callID in Self.callIDs {
            for response in responses {
                for status in [nil, Status.ok, Status(code: .internal, message: "both")] {
                    let frame = ServerFrame(callID: callID, status: status, response: response)
                    let (direct, packed) = bothEncodings(frame)
                    #expect(direct == packed, "\(frame)")
                }
            }
            for value in AuthorizationStatus.allCases {
                var reply: [UInt8] = []
                WireCodec.appendAuthorizationStatusReply(callID: callID, status: value, to: &reply)
                var packed: [UInt8] = []
                ProtoReference.appendByProtobufC(ServerFrame(callID: callID, response: .authorizationStatus(value)), to: &packed)
                #expect(reply == packed)
            }
        }
    }

    private static let datedTypeSets: [[ObjectType: Int64]] = [
        [:],
        [.stepCount: 1],
        [.stepCount: 1_700_000_000_000_000, .heartRate: 0, .activeEnergyBurned: -5],
        Dictionary(uniqueKeysWithValues: TypeCatalogue.all.enumerated().map { ($1.type, Int64($0) * 1_000_003) }),
        [ObjectType("zzz-unknown"): 7, ObjectType(""): 8, .workout: 9, ObjectType("HKQuantityTypeIdentifierStep"): 10],
        [ObjectType("H\u{212A}QuantityTypeIdentifierStepCount"): 11, .heartRate: 12],  // Kelvin sign: equals stepCount
        [ObjectType("ünïcödé"): 13, ObjectType("with\u{0}nul"): 14, ObjectType("a"): 15],
        [ObjectType(String(repeating: "long", count: 50)): .max],
    ]

    @Test func earliestAuthorizedSampleDateFramesMatchProtobufC() {
        for callID in Self.callIDs {
            for dates in Self.datedTypeSets {
                for status in [nil, Status(code: .aborted, message: "odd but encodable")] {
                    let frame = ServerFrame(callID: callID, status: status, response: .earliestAuthorizedSampleDate(TypeDates(dates)))
                    let (direct, packed) = bothEncodings(frame)
                    #expect(direct == packed, "\(dates)")
                }
            }
        }
    }

    @Test func brokerReplyFormsMatchProtobufC() {
        for callID in Self.callIDs {
            for dates in Self.datedTypeSets {
                var packed: [UInt8] = []
                ProtoReference.appendByProtobufC(ServerFrame(callID: callID, response: .earliestAuthorizedSampleDate(TypeDates(dates))), to: &packed)

                var reply: [UInt8] = []
                WireCodec.append(ServerFrame(callID: callID, response: .earliestAuthorizedSampleDate(TypeDates(dates))), to: &reply)
                #expect(reply == packed, "\(dates)")

                let indexed = dates.compactMap { entry in
                    TypeCatalogue.spelledIndex(of: entry.key).map { Proto.TypeDate.Catalogued(type: $0, dateMicros: entry.value) }
                }
                guard indexed.count == dates.count else { continue }
                var indexedEntries = indexed
                var indexedReply: [UInt8] = []
                indexedEntries.withUnsafeMutableBufferPointer {
                    WireCodec.appendEarliestAuthorizedSampleDateReply(callID: callID, catalogued: $0, to: &indexedReply)
                }
                #expect(indexedReply == packed, "\(dates)")
            }
        }
    }

    /// The generated appender of catalogued entries (`Proto.TypeDate.Catalogued`) writes what
    /// protobuf-c packs for the same reply, with and without a status (the second goes through the
    /// appender of the built message), in whatever order the entries come.
    @Test func cataloguedEntryAppenderMatchesProtobufC() {
        let everyIndex = Array(0..<TypeCatalogue.count)
        let entrySets: [[Proto.TypeDate.Catalogued]] = [
            [],
            [Proto.TypeDate.Catalogued(type: 0, dateMicros: 0)],
            everyIndex.map { Proto.TypeDate.Catalogued(type: $0, dateMicros: Int64($0) &* 1_000_003 &- 50_000_000) },
            everyIndex.reversed().prefix(7).map { Proto.TypeDate.Catalogued(type: $0, dateMicros: .min) },
            [Proto.TypeDate.Catalogued(type: TypeCatalogue.count - 1, dateMicros: .max), Proto.TypeDate.Catalogued(type: 3, dateMicros: -1)],
        ]
        for callID in Self.callIDs {
            for entries in entrySets {
                for status: Proto.Status? in [nil, Status(code: .aborted, message: "odd but encodable").proto] {
                    var message = Proto.ServerFrame()
                    message.callID = callID
                    message.status = status
                    var response = Proto.EarliestAuthorizedSampleDateResponse()
                    response.dates = entries.map(\.message)
                    message.response = .earliestAuthorizedSampleDate(response)
                    let packed = message.repackedByProtobufC()
                    #expect(packed != nil)

                    var appended: [UInt8] = []
                    entries.withUnsafeBufferPointer {
                        Proto.ServerFrame.appendFrame(callID: callID, status: status, earliestAuthorizedSampleDate: $0, to: &appended)
                    }
                    var whole: [UInt8] = []
                    message.appendFrame(to: &whole)
                    #expect(appended == whole, "\(entries.count) entries, status \(status != nil)")
                    #expect(Array(appended.dropFirst(5)) == packed, "\(entries.count) entries, status \(status != nil)")
                }
            }
        }
    }

    /// No catalogued identifier holds a NUL: the catalogued writers take its whole bytes as the
    /// string protobuf-c would write (a C string ends at its first NUL).
    @Test func catalogueIdentifiersHaveNoNul() {
        for index in 0..<TypeCatalogue.count {
            let spelling = ProtoTypeIdentifier(TypeCatalogue.knownTypes[index].identifier)
            #expect(spelling.catalogueIndex == Int32(index))
            #expect(ProtoWriter.cStringCount(spelling.spelling) == ProtoWriter.catalogueCount(index))
        }
    }

    @Test func otherResponsesEncodeAsProtobufCDoes() {
        let hello = HelloResponse(brokerVersion: "1", protocolVersion: 1, maxFrameBytes: 1, brokerTimeMicros: 1, maxCallsInFlight: 1)
        for response in [Proto.ServerFrame.Response.hello(hello), .delete(deleted: 3), .requestAuthorization] {
            let (encoded, packed) = bothEncodings(ServerFrame(callID: 1, response: response))
            #expect(encoded == packed, "\(response)")
        }
    }
}
