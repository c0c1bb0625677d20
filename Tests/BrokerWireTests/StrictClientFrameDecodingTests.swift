import BrokerModel
import TestSupport
import Testing
@testable import BrokerWire

/// The generated strict decoder on the per-call ClientFrames: wherever it takes the bytes it must
/// give protobuf-c's value, and `decodeClientFrame` must give protobuf-c's value whatever the bytes.
@Suite("Strict ClientFrame decoding against protobuf-c")
struct StrictClientFrameDecodingTests {
    /// The strict decoder's value for `bytes` (nil: left to protobuf-c), checked against protobuf-c's.
    @discardableResult
    private func checkAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ClientFrame? {
        let direct = bytes.withUnsafeBufferPointer { ProtoReference.strictClientFrame($0) }
        guard let direct else { return nil }
        let unpacked = try? ProtoReference.clientFrameByProtobufC(bytes[...])
        #expect(unpacked == direct, "bytes \(bytes)", sourceLocation: sourceLocation)
        #expect((try? WireCodec.decodeClientFrame(bytes[...])) == direct, sourceLocation: sourceLocation)
        return direct
    }

    private static let commonFrames: [ClientFrame] = {
        var frames: [ClientFrame] = []
        let typeLists: [[ObjectType]] = [
            [], [.stepCount], [.stepCount, .heartRate, .activeEnergyBurned], TypeCatalogue.all.map(\.type),
            [.stepCount, .stepCount], [ObjectType("nope"), ObjectType(""), .workout],
            [ObjectType("with\u{0}nul"), ObjectType("ünïcödé"), ObjectType("H\u{212A}QuantityTypeIdentifierStepCount")],
            Array(repeating: .bodyMass, count: 300),
        ]
        let requests: [Proto.Call.Request] = [
            .ping(PingRequest()), .ping(PingRequest(delayMicros: 5, payload: [1, 2, 3])),
            .ping(PingRequest(delayMicros: -1, payload: patternBytes(300))),
            .ping(PingRequest(delayMicros: .max, payload: [0])), .ping(PingRequest(delayMicros: .min)),
            .authorizationStatus(.activeEnergyBurned), .authorizationStatus(ObjectType("")),
            .authorizationStatus(ObjectType("unknown\u{0}tail")), .authorizationStatus(ObjectType("ß")),
        ] + typeLists.map { .earliestAuthorizedSampleDate($0) }
        for request in requests {
            for (callID, timeout, credit): (UInt64, Int64, UInt32) in [(1, 0, 0), (0, 0, 0), (300, 1_000_000, 64), (.max, -1, .max)] {
                frames.append(.call(Call(callID: callID, timeoutMicros: timeout, initialCredit: credit, request: request)))
            }
        }
        return frames
    }()

    private func encoded(_ frame: ClientFrame) -> [UInt8] {
        var buffer: [UInt8] = []
        WireCodec.append(frame, to: &buffer)
        return Array(buffer.dropFirst(FrameDecoder.headerSize))
    }

    @Test func commonFramesDecodeStrictlyToTheSameValue() {
        for frame in Self.commonFrames {
            let decoded = checkAgreement(encoded(frame))
            #expect(decoded != nil, "\(frame)")
            // A type with a NUL travels cut at it (a C string), by either decoder.
            // (Generated messages describe a NUL as the escape \0.)
            if !"\(frame)".contains("\u{0}") && !"\(frame)".contains("\\0") { #expect(decoded == frame, "\(frame)") }
        }
    }

    @Test func anOddSpellingOnTheWireDecodesToTheCataloguesBytes() throws {
        // `ObjectType` respells on creation, so the odd bytes are swapped into an encoded frame in
        // place of a same-length stand-in: once for a frame decoded directly, once for protobuf-c.
        let odd = Array("H\u{212A}QuantityTypeIdentifierStepCount".utf8)
        let standIn = ObjectType("HxxxQuantityTypeIdentifierStepCount")
        let requests: [Proto.Call.Request] = [.authorizationStatus(standIn), .requestAuthorization(share: [standIn], read: [standIn])]
        for request in requests {
            var bytes = encoded(.call(Call(callID: 1, request: request)))
            while let at = bytes.firstRange(of: Array(standIn.identifier.utf8)) { bytes.replaceSubrange(at, with: odd) }
            guard case .call(let call) = try WireCodec.decodeClientFrame(bytes[...]) else {
                Issue.record("not a call")
                continue
            }
            switch call.request {
            case .authorizationStatus(let request)?:
                // As the broker maps it (ObjectType(protoIdentifier:)).
                #expect(Array(ObjectType(protoIdentifier: request.type).identifier.utf8) == Array(ObjectType.stepCount.identifier.utf8))
            case .requestAuthorization(let request)?:
                #expect(ObjectType.types(protoIdentifiers: request.shareTypes + request.readTypes).map { Array($0.identifier.utf8) }
                    == Array(repeating: Array(ObjectType.stepCount.identifier.utf8), count: 2))
            default:
                Issue.record("unexpected \(call.request)")
            }
        }
    }

    @Test func catalogueTypesDecodeToTheSharedValues() throws {
        let frame = ClientFrame.call(Call(callID: 1, request: .earliestAuthorizedSampleDate([.stepCount, ObjectType("x")])))
        guard case .call(let call)? = checkAgreement(encoded(frame)), case .earliestAuthorizedSampleDate(let types) = call.request else {
            Issue.record("not decoded directly")
            return
        }
        #expect(TypeCatalogue.spelledIndex(of: ObjectType(protoIdentifier: types.types[0])) != nil)
        #expect(TypeCatalogue.spelledIndex(of: ObjectType(protoIdentifier: types.types[1])) == nil)
    }

    @Test func otherShapesAreAgreeWithProtobufC() {
        let others: [ClientFrame] = [
            .cancel(callID: 3), .credit(callID: 3, items: 9),
            .call(Call(callID: 1, request: nil)),
            .call(Call(callID: 1, request: .earliestPermittedSampleDate)),
            .call(Call(callID: 1, request: .requestStatus(share: [.stepCount], read: []))),
            .call(Call(callID: 1, request: .adminListApps)),
        ]
        for frame in others {
            checkAgreement(encoded(frame))
        }
    }

    @Test func unusualEncodingsAreAgreeWithProtobufC() {
        let ping: [UInt8] = [0x08, 0x01]
        let cases: [[UInt8]] = [
            // call_id twice (protobuf-c keeps the last)
            [0x0A, 0x06, 0x08, 0x01, 0x08, 0x02, 0x5A, 0x00],
            // two request cases (the last wins)
            [0x0A, 0x07, 0x5A, 0x00, 0xAA, 0x01, 0x02, 0x0A, 0x00],
            // ping twice (merged)
            [0x0A, 0x06, 0x5A, 0x02] + ping + [0x5A, 0x00],
            // an unknown field in Call
            [0x0A, 0x04, 0x20, 0x01, 0x5A, 0x00],
            // an unknown field in ClientFrame after the call
            [0x0A, 0x02, 0x5A, 0x00, 0x20, 0x01],
            // a non-minimal key
            [0x0A, 0x05, 0x88, 0x00, 0x01, 0x5A, 0x00],
            // initial_credit above UInt32.max (protobuf-c truncates)
            [0x0A, 0x08, 0x18, 0x80, 0x80, 0x80, 0x80, 0x10, 0x5A, 0x00],
            // wrong wire type for call_id
            [0x0A, 0x04, 0x0A, 0x00, 0x5A, 0x00],
            // call shorter than the frame
            [0x0A, 0x02, 0x5A, 0x00, 0x00],
            // truncated
            [0x0A, 0x04, 0x5A, 0x02, 0x08],
            // EASD with a field other than types
            [0x0A, 0x05, 0xBA, 0x01, 0x02, 0x10, 0x01],
        ]
        for bytes in cases {
            checkAgreement(bytes)
        }
    }

    @Test func oddButAcceptedEncodingsAgree() throws {
        // Fields out of order, a 10-byte varint, a non-minimal varint value, an empty status type.
        let cases: [[UInt8]] = [
            [0x0A, 0x06, 0x5A, 0x00, 0x08, 0x05, 0x10, 0x01],
            [0x0A, 0x0D, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x5A, 0x00],
            [0x0A, 0x05, 0x08, 0x81, 0x00, 0x5A, 0x00],
            [0x0A, 0x03, 0xAA, 0x01, 0x00],
            [0x0A, 0x05, 0xAA, 0x01, 0x02, 0x0A, 0x00],
            [0x0A, 0x07, 0xBA, 0x01, 0x04, 0x0A, 0x00, 0x0A, 0x00],
            // invalid UTF-8 in a type
            [0x0A, 0x07, 0xAA, 0x01, 0x04, 0x0A, 0x02, 0xFF, 0xFE],
        ]
        for bytes in cases {
            checkAgreement(bytes)
        }
    }

    @Test func mutatedFramesNeverDisagree() {
        var generator = ByteMutator(seed: 0x5EED)
        for frame in Self.commonFrames where encoded(frame).count < 2_000 {
            let original = encoded(frame)
            for _ in 0..<150 {
                let bytes = generator.mutated(original)
                checkAgreement(bytes)
            }
        }
    }
}
