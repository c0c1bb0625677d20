import BrokerModel
import Testing
@testable import BrokerWire

/// The generated codec against protobuf-c, the codec of record: for a rich value of every frame
/// kind the generated encoding is protobuf-c's packing byte for byte, decoding gives the value back,
/// and on every truncation and bit flip of those bytes the codec (strict reader first, protobuf-c
/// for what it leaves) accepts or rejects as protobuf-c does, with protobuf-c's value.
@Suite("Generated codec against protobuf-c")
struct ProtoCodecTests {
    // MARK: Values

    /// A sample of each value kind, with the awkward parts: metadata (a NUL in a key, keys out of
    /// order), workouts with and without energy and distance, a negative category, -0.0.
    static let richSamples: [Sample] = [
        Sample(
            uuid: "q-1", type: .stepCount, startMicros: -1, endMicros: .max, value: .quantity(Quantity(-0.0, "count")),
            metadata: ["zeta": "last", "alpha": "first", "n\u{0}ul": "cut key", "": "empty key", "ü": "\u{0}"],
            sourceAppID: "com.example.source", createdMicros: .min),
        Sample(uuid: "c-1", type: .sleepAnalysis, startMicros: 5, endMicros: 6, value: .category(-3)),
        Sample(
            uuid: "w-1", type: .workout, startMicros: 10, endMicros: 20,
            value: .workout(WorkoutDetails(
                activityType: "running", durationMicros: 10,
                totalEnergy: Quantity(321.5, "kcal"), totalDistance: Quantity(-0.0, "m")))),
        Sample(
            uuid: "w-2", type: .workout, startMicros: 10, endMicros: 20,
            value: .workout(WorkoutDetails(activityType: "", durationMicros: 0))),
        Sample(uuid: "", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .quantity(Quantity(0, ""))),
        Sample(uuid: "nan", type: .heartRate, startMicros: 1, endMicros: 2, value: .quantity(Quantity(.nan, "count/min"))),
    ]

    /// Every ClientFrame of the shared samples, plus calls with the rich samples, NUL-containing
    /// strings and no request case.
    static let clientFrames: [ClientFrame] = Samples.clientFrames + [
        .call(Call(callID: 1, request: .save(richSamples))),
        .call(Call(callID: 2, request: .adminImport(appID: "com.example\u{0}tail", samples: richSamples))),
        .call(Call(callID: 3, timeoutMicros: -1, initialCredit: .max, request: nil)),
        .call(Call(callID: .max, request: .authorizationStatus(ObjectType("with\u{0}nul")))),
        .call(Call(callID: 4, request: .hello(HelloRequest(appID: "a\u{0}b", appToken: "\u{0}", protocolVersion: 0)))),
        .cancel(callID: 0), .credit(callID: 0, items: 0),
    ]

    /// Every ServerFrame of the shared samples, plus pages of the rich samples and statuses with
    /// NUL-containing messages.
    static let serverFrames: [ServerFrame] = Samples.serverFrames + [
        ServerFrame(callID: 1, response: .streamItem(.samples(richSamples))),
        ServerFrame(callID: 2, response: .streamItem(.anchoredPage(AnchoredPage(
            added: richSamples, deletedUUIDs: ["d-1", "d\u{0}2"], deletedSourceAppIDs: ["s-1"], newAnchor: [0, 1, 2],
            done: true)))),
        ServerFrame(callID: 3, status: Status(code: .internal, domain: .protocolError, message: "cut\u{0}here")),
        ServerFrame(callID: 0),
        ServerFrame(callID: 4, response: .earliestAuthorizedSampleDate([.stepCount: -1, ObjectType("x\u{0}y"): 2])),
    ]

    /// Messages only the .proto can hold: negative and unnamed enum numbers, empty oneof cases.
    static let protoOnlyServerFrames: [Proto.ServerFrame] = {
        var frames: [Proto.ServerFrame] = []
        var status = Proto.ServerFrame()
        status.callID = 9
        var negative = Proto.Status()
        negative.code = Proto.StatusCode(rawValue: -5)
        negative.domain = Proto.DomainCode(rawValue: .min)
        status.status = negative
        frames.append(status)
        var authorization = Proto.AuthorizationStatusResponse()
        authorization.status = Proto.AuthorizationStatus(rawValue: -1)
        var reply = Proto.ServerFrame()
        reply.response = .authorizationStatus(authorization)
        frames.append(reply)
        var emptyItem = Proto.ServerFrame()
        emptyItem.response = .streamItem(Proto.StreamItem())
        frames.append(emptyItem)
        var emptyEvent = Proto.StreamItem()
        emptyEvent.item = .promptEvent(Proto.PromptEvent())
        var event = Proto.ServerFrame()
        event.response = .streamItem(emptyEvent)
        frames.append(event)
        var valueless = Proto.SamplePage()
        valueless.samples = [Proto.Sample()]
        var page = Proto.StreamItem()
        page.item = .samples(valueless)
        var pageFrame = Proto.ServerFrame()
        pageFrame.response = .streamItem(page)
        frames.append(pageFrame)
        return frames
    }()

    // MARK: Checks

    /// The generated encoding is protobuf-c's packing of the same message.
    private func checkEncoding<Message: ProtoMessage>(
        _ message: Message, _ name: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) where Message: ProtobufCRepacking {
        let encoded = message.encoded()
        let repacked = message.repackedByProtobufC()
        #expect(repacked == encoded, "\(name())", sourceLocation: sourceLocation)
    }

    /// On `bytes` the codec (strict reader, then protobuf-c) and protobuf-c alone accept or reject
    /// alike, with the same value (compared by its encoding and unknown fields: NaN != NaN); and a
    /// message the strict reader takes is protobuf-c's.
    private func checkAgreement<Message: ProtoMessage>(
        _ type: Message.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtoReader(buffer)
            let strict = Message(strict: &reader)
            let decoded = Message.decode(buffer)
            let reference = Message.unpacked(buffer)
            var agree = (decoded == nil) == (reference == nil)
            if let decoded, let reference {
                agree = agree && decoded.encoded() == reference.encoded()
            }
            if let strict {
                agree = agree && reference != nil && strict.encoded() == reference?.encoded()
                    && Self.unknownFields(strict) == Self.unknownFields(reference)
            }
            #expect(agree, "bytes \(bytes.prefix(64)) (\(bytes.count))", sourceLocation: sourceLocation)
            return agree
        }
    }

    private static func unknownFields<Message: ProtoMessage>(_ message: Message?) -> [UInt32]? {
        switch message {
        case let frame as Proto.ClientFrame: frame.unknownFieldNumbers
        case let frame as Proto.ServerFrame: frame.unknownFieldNumbers
        default: nil
        }
    }

    /// Every truncation of `bytes`, and every single-bit flip (every bit for short messages, one bit a
    /// byte, rotating, for long ones), agree; stops at the first disagreement.
    ///
    /// Yields every 128 checks: one frame's mutations take seconds of CPU in a debug build, and with
    /// a yield only per frame the two mutation tests could hold both cooperative threads (two cores)
    /// for seconds at a time; beside two CPU hogs the parallel run's other tests waited over 90 s.
    private func checkMutations<Message: ProtoMessage>(
        _ type: Message.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        var checks = 0
        for end in 0..<bytes.count {
            guard checkAgreement(type, Array(bytes[..<end]), sourceLocation: sourceLocation) else { return }
            checks += 1
            if checks % 128 == 0 { await Task.yield() }
        }
        let everyBit = bytes.count <= 256
        for index in bytes.indices {
            for bit in everyBit ? Array(0..<8) : [index % 8] {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                guard checkAgreement(type, flipped, sourceLocation: sourceLocation) else { return }
                checks += 1
                if checks % 128 == 0 { await Task.yield() }
            }
        }
    }

    // MARK: Tests

    @Test func theValuesCoverEveryMethodAndResponse() {
        var methods = Set<ProtoMethod>()
        for case .call(let call) in Self.clientFrames {
            if let method = call.request?.method { methods.insert(method) }
        }
        #expect(methods == Set(ProtoMethod.allCases))
        var responses = Set<String>()
        var items = Set<String>()
        for frame in Self.serverFrames {
            guard let response = frame.response else { continue }
            responses.insert(Self.caseName(response))
            if case .streamItem(let item) = response, let model = try? StreamItem(proto: item) { items.insert(Self.caseName(model)) }
        }
        // Every response case (one per unary method of the method table, and streamItem) and every
        // StreamItem case.
        #expect(responses.count == ProtoMethod.allCases.filter { !$0.isServerStreaming }.count + 1, "\(responses.sorted())")
        #expect(items == ["ping", "promptEvent", "samples", "anchoredPage", "observed"])
    }

    private static func caseName(_ value: some Any) -> String {
        Mirror(reflecting: value).children.first?.label ?? "\(value)"
    }

    @Test func clientFramesEncodeAsProtobufCPacksThem() {
        for frame in Self.clientFrames {
            checkEncoding(frame.proto, Named(frame).testDescription)
        }
    }

    @Test func serverFramesEncodeAsProtobufCPacksThem() {
        for frame in Self.serverFrames {
            checkEncoding(frame.proto, Named(frame).testDescription)
        }
        for message in Self.protoOnlyServerFrames {
            checkEncoding(message, "\(message)")
        }
    }

    @Test func clientFramesDecodeBackToTheirMessage() {
        for frame in Self.clientFrames {
            let message = frame.proto
            let decoded = message.encoded().withUnsafeBufferPointer { Proto.ClientFrame.decode($0) }
            #expect(decoded?.encoded() == message.encoded(), "\(Named(frame).testDescription)")
            // The model round trip, where no NUL is cut and no NaN compares unequal.
            if !"\(frame)".contains("\u{0}"), !"\(frame)".contains("\\0"), !"\(frame)".contains("nan") {
                #expect((try? roundTrip(frame)) == frame, "\(Named(frame).testDescription)")
            }
        }
    }

    @Test func serverFramesDecodeBackToTheirMessage() {
        for frame in Self.serverFrames {
            let message = frame.proto
            let decoded = message.encoded().withUnsafeBufferPointer { Proto.ServerFrame.decode($0) }
            #expect(decoded?.encoded() == message.encoded(), "\(Named(frame).testDescription)")
            if !"\(frame)".contains("\u{0}"), !"\(frame)".contains("\\0"), !"\(frame)".contains("nan") {
                #expect((try? roundTrip(frame)) == frame, "\(Named(frame).testDescription)")
            }
        }
        for message in Self.protoOnlyServerFrames {
            let decoded = message.encoded().withUnsafeBufferPointer { Proto.ServerFrame.decode($0) }
            #expect(decoded == message, "\(message)")
        }
    }

    // These two take tens of seconds of CPU in a debug build. They yield often (`checkMutations`): a test
    // that holds a cooperative thread that long (the pool is as wide as the machine has cores, 2
    // here) starves every other test of the parallel run, and timing-bound ones then fail.
    @Test func everyTruncationAndBitFlipOfAClientFrameAgreesWithProtobufC() async {
        for frame in Self.clientFrames {
            let bytes = frame.proto.encoded()
            guard bytes.count <= 8_192 else { continue }
            await checkMutations(Proto.ClientFrame.self, bytes)
        }
    }

    @Test func everyTruncationAndBitFlipOfAServerFrameAgreesWithProtobufC() async {
        for frame in Self.serverFrames {
            let bytes = frame.proto.encoded()
            guard bytes.count <= 8_192 else { continue }
            await checkMutations(Proto.ServerFrame.self, bytes)
        }
        for message in Self.protoOnlyServerFrames {
            await checkMutations(Proto.ServerFrame.self, message.encoded())
        }
    }

    @Test func unknownFieldsAreLeftToProtobufC() {
        // Field 127 (varint 1), which no message has: the strict reader declines the bytes, and
        // protobuf-c keeps the field's number.
        let bytes = Self.clientFrames[0].proto.encoded() + [0xF8, 0x07, 0x01]
        bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtoReader(buffer)
            #expect(Proto.ClientFrame(strict: &reader) == nil)
            #expect(Proto.ClientFrame.decode(buffer)?.unknownFieldNumbers == [127])
        }
        #expect(checkAgreement(Proto.ClientFrame.self, bytes))
    }
}

/// The generated messages that protobuf-c can repack (every top-level frame).
protocol ProtobufCRepacking {
    /// protobuf-c's packing of the message read back from its generated encoding.
    func repackedByProtobufC() -> [UInt8]?
}

extension Proto.ClientFrame: ProtobufCRepacking {}
extension Proto.ServerFrame: ProtobufCRepacking {}
