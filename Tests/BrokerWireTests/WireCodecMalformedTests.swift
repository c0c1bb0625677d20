import BrokerModel
import Testing
@testable import BrokerWire

@Suite("WireCodec malformed input")
struct WireCodecMalformedTests {
    @Test func emptyClientFrameHasNoKindAndIsRefused() {
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame([]) }
    }

    @Test func emptyServerFrameIsAConnectionFrameWithNothingSet() throws {
        #expect(try WireCodec.decodeServerFrame([]) == ServerFrame(callID: 0))
    }

    @Test func emptyPayloadFrameGoesThroughDecoderAndCodec() throws {
        let frame = try onlyFrame(in: framed([]))
        #expect(frame.isEmpty)
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(frame) }
        #expect(try WireCodec.decodeServerFrame(frame) == ServerFrame(callID: 0))
    }

    @Test(arguments: Samples.clientFrames.filter { payload(of: $0).count < 2_000 }.map(Named.init))
    func everyTruncationOfAClientFrameIsRefused(sample: Named<ClientFrame>) {
        let bytes = payload(of: sample.value)
        for length in 0..<bytes.count {
            #expect(throws: undecodable("ClientFrame"), "cut to \(length) of \(bytes.count) bytes") {
                try WireCodec.decodeClientFrame(bytes[..<length])
            }
        }
    }

    @Test func truncatedBigClientFrameIsRefused() {
        let bytes = payload(of: .call(Call(callID: 4, request: .ping(PingRequest(payload: Samples.bigPayload)))))
        for length in [bytes.count - 1, bytes.count / 2, 9] {
            #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(bytes[..<length]) }
        }
    }

    @Test(arguments: Samples.serverFrames.filter { !payload(of: $0).isEmpty }.map(Named.init))
    func serverFrameCutByOneByteIsRefused(sample: Named<ServerFrame>) {
        let bytes = payload(of: sample.value)
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes.dropLast()) }
    }

    @Test func truncatedFrameDeclaredWithItsShortLengthIsRefusedOnDecode() throws {
        // A sender that frames a cut message: the framing is fine, the message is not.
        let message = payload(of: Samples.clientFrames[0])
        let cut = Array(message.prefix(message.count - 3))
        let frame = try onlyFrame(in: framed(cut))
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(frame) }
    }

    @Test(arguments: [
        [0xFF] as [UInt8],                      // field 31 with the invalid wire type 7
        [0x0A, 0x05, 0x08],                     // call declares 5 bytes, has 1
        [0x0A, 0x02, 0x08],                     // cut inside the call
        [0x0A],                                 // a tag with no value
        [0x08, 0x01],                           // field 1 as a varint: wrong wire type for a message
        [0x0A, 0x0B, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80],  // endless varint
        [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],   // a length of 4 GiB
    ])
    func garbledClientFrameIsRefused(bytes: [UInt8]) {
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(bytes[...]) }
    }

    @Test(arguments: [
        [0xFF] as [UInt8],                      // invalid wire type
        [0x12, 0x05, 0x08],                     // status declares 5 bytes, has 1
        [0x0A, 0x01, 0x00],                     // call_id sent length-delimited
        [0x08],                                 // a tag with no value
        [0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],  // varint over 10 bytes
        [0x5A, 0x03, 0x0A, 0x05, 0x00],         // ping.payload runs past the ping
    ])
    func garbledServerFrameIsRefused(bytes: [UInt8]) {
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes[...]) }
    }

    @Test func streamItemOfAnUnknownKindIsRefused() {
        // ServerFrame { call_id: 1, stream_item (3) { field 13: {} } }
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x02, 0x6A, 0x00]
        // The frame is well-formed protobuf; the client's model refuses the item (that call fails).
        #expect(throws: BrokerError.self) { try modelItem(bytes[...]) }
    }

    @Test func emptyStreamItemIsRefused() {
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x00]
        // The frame is well-formed protobuf; the client's model refuses the item (that call fails).
        #expect(throws: BrokerError.self) { try modelItem(bytes[...]) }
    }

    @Test func emptyPromptEventIsRefused() {
        // ServerFrame { call_id: 1, stream_item { prompt_event {} } }
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x03, 0xF2, 0x06, 0x00]
        // The frame is well-formed protobuf; the client's model refuses the item (that call fails).
        #expect(throws: BrokerError.self) { try modelItem(bytes[...]) }
    }

    @Test func promptEventOfAnUnknownKindIsRefused() {
        // ServerFrame { call_id: 1, stream_item { prompt_event { field 3: {} } } }
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x05, 0xF2, 0x06, 0x02, 0x1A, 0x00]
        // The frame is well-formed protobuf; the client's model refuses the item (that call fails).
        #expect(throws: BrokerError.self) { try modelItem(bytes[...]) }
    }

    @Test func typeListCutInsideAnIdentifierIsRefused() {
        // Call { call_id: 1, read_characteristics (25) { types: declares 5 bytes, has 2 } }
        let bytes: [UInt8] = [0x0A, 0x09, 0x08, 0x01, 0xCA, 0x01, 0x04, 0x0A, 0x05, 0x61, 0x62]
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(bytes[...]) }
    }

    // MARK: Samples

    @Test func sampleWithoutAValueIsRefusedInAPage() {
        // ServerFrame { call_id: 1, stream_item { samples (52) { samples { uuid: "u", start_us: 1 } } } }
        let sample: [UInt8] = [0x0A, 0x01, 0x75, 0x18, 0x01]
        let page: [UInt8] = [0x0A, UInt8(sample.count)] + sample
        let item: [UInt8] = [0xA2, 0x03, UInt8(page.count)] + page
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, UInt8(item.count)] + item
        // The frame is well-formed protobuf; the client's model refuses the item (that call fails).
        #expect(throws: BrokerError.self) { try modelItem(bytes[...]) }
    }

    @Test func aSampleWithoutAValueInSaveOrImportIsTheCallsInvalidArgumentNamingIt() throws {
        // Call { call_id: 1, save (50) { samples { uuid: "u" } } }: well-formed protobuf, so the call
        // decodes and carries the error for its own call id; the connection is not at fault.
        let save: [UInt8] = [0x0A, 0x03, 0x0A, 0x01, 0x75]
        let saveCall: [UInt8] = [0x08, 0x01, 0x92, 0x03, UInt8(save.count)] + save
        let saveFrame = try WireCodec.decodeClientFrame(([0x0A, UInt8(saveCall.count)] + saveCall)[...])
        guard case .call(let call) = saveFrame, let request = call.request, let error = request.contentError else {
            Issue.record("expected an invalid Save call, got \(saveFrame)")
            return
        }
        #expect(call.callID == 1)
        #expect(request.method == .save)
        #expect(request.method.socket == .app)
        #expect(error.code == .invalidArgument)
        #expect(error.domain == .invalidArgument)
        #expect(error.message == "samples[0]: value: missing; set quantity, category_value, workout or correlation")
        // Call { call_id: 1, admin_import (150) { app_id: "a", samples { uuid: "u", field 14: 1 } } }:
        // a value kind this build does not know (a newer client's) is named by its field number.
        let adminImport: [UInt8] = [0x0A, 0x01, 0x61, 0x12, 0x05, 0x0A, 0x01, 0x75, 0x70, 0x01]
        let importCall: [UInt8] = [0x08, 0x02, 0xB2, 0x09, UInt8(adminImport.count)] + adminImport
        let importFrame = try WireCodec.decodeClientFrame(([0x0A, UInt8(importCall.count)] + importCall)[...])
        guard case .call(let second) = importFrame, let newer = second.request, let newerError = newer.contentError else {
            Issue.record("expected an invalid AdminImport call, got \(importFrame)")
            return
        }
        #expect(second.callID == 2)
        #expect(newer.method == .adminImport)
        #expect(newer.method.socket == .admin)
        #expect(newerError.code == .invalidArgument)
        #expect(newerError.message.hasPrefix("samples[0]: value: field 14 is a value kind this broker does not know"))
    }

    @Test func aCorrelationObjectWithoutAValueIsNamedInsideItsCorrelation() {
        var member = Proto.Sample()
        member.uuid = "m"
        var good = Proto.Sample()
        good.value = .categoryValue(1)
        var correlation = Proto.Correlation()
        correlation.objects = [good, member]
        var sample = Proto.Sample()
        sample.value = .correlation(correlation)
        #expect(Sample.valueError(in: [good, sample])?.message
                == "samples[1]: objects[1]: value: missing; set quantity, category_value, workout or correlation")
        // In index order: a bare sample before it is named first.
        #expect(Sample.valueError(in: [member, sample])?.message.hasPrefix("samples[0]: value: missing") == true)
        #expect(Sample.valueError(in: [good, good]) == nil)
    }

    @Test func theFirstSampleWithoutAValueIsNamedByItsIndex() throws {
        // Save { samples { uuid: "a", category_value: 3 } ×2, samples { uuid: "u" }, samples { uuid: "v" } }
        let good: [UInt8] = [0x0A, 0x05, 0x0A, 0x01, 0x61, 0x58, 0x03]
        let bare: [UInt8] = [0x0A, 0x03, 0x0A, 0x01, 0x75]
        let alsoBare: [UInt8] = [0x0A, 0x03, 0x0A, 0x01, 0x76]
        let save = good + good + bare + alsoBare
        let call: [UInt8] = [0x08, 0x05, 0x92, 0x03, UInt8(save.count)] + save
        let frame = try WireCodec.decodeClientFrame(([0x0A, UInt8(call.count)] + call)[...])
        guard case .call(let decoded) = frame, let error = decoded.request?.contentError else {
            Issue.record("expected an invalid Save call, got \(frame)")
            return
        }
        #expect(error.message.hasPrefix("samples[2]: "))
        // The same samples all with values decode as a plain Save.
        let fine = good + good
        let fineCall: [UInt8] = [0x08, 0x05, 0x92, 0x03, UInt8(fine.count)] + fine
        guard case .call(let plain) = try WireCodec.decodeClientFrame(([0x0A, UInt8(fineCall.count)] + fineCall)[...]),
            case .save(let save) = plain.request, plain.request?.contentError == nil
        else {
            Issue.record("expected a Save")
            return
        }
        #expect(try Sample.samples(proto: save.samples).map(\.value) == [.category(3), .category(3)])
    }

    @Test func aCallWithNoRequestCaseEncodesAsOne() throws {
        let bytes = payload(of: .call(Call(callID: 3, request: nil)))
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == .call(Call(callID: 3, request: nil)))
    }

    @Test func everyMethodBelongsToTheSocketTheProtoNames() {
        for method in ProtoMethod.allCases {
            switch method {
            case .ping, .pingStream: #expect(method.socket == .both, "\(method.name)")
            default: #expect(method.socket == (method.name.hasPrefix("Admin") ? .admin : .app), "\(method.name)")
            }
        }
    }

    @Test func aSampleWithoutAValueInAPageStaysUndecodableOnBothPaths() {
        // ServerFrame { call_id: 1, stream_item { anchored_page (53) { added { uuid: "u" }, done: true } } }:
        // the broker never sends such a sample; the strict reader declines it, protobuf-c reads it, and
        // the client's model refuses the item.
        let anchored: [UInt8] = [0x0A, 0x03, 0x0A, 0x01, 0x75, 0x20, 0x01]
        let item: [UInt8] = [0xAA, 0x03, UInt8(anchored.count)] + anchored
        let bytes = ([0x08, 0x01, 0x1A, UInt8(item.count)] + item)[...]
        #expect(throws: BrokerError.self) { try modelItem(bytes) }
    }

    @Test func samplePageCutAnywhereIsRefused() {
        let bytes = payload(of: ServerFrame(callID: 47, response: .streamItem(.samples(Samples.bigPage))))
        var lengths = Array(stride(from: 1, to: bytes.count, by: 9_973))
        lengths += [bytes.count - 1, bytes.count - 2, bytes.count - 40, bytes.count / 2, 7, 6, 5]
        for length in lengths {
            #expect(throws: undecodable("ServerFrame"), "cut to \(length) of \(bytes.count) bytes") {
                try WireCodec.decodeServerFrame(bytes[..<length])
            }
        }
    }

    @Test func saveCutAnywhereIsRefused() {
        let bytes = payload(of: .call(Call(callID: 42, request: .save(Samples.bigPage))))
        for length in [bytes.count - 1, bytes.count - 17, bytes.count / 3, 12, 3] {
            #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(bytes[..<length]) }
        }
    }

    @Test(arguments: Samples.healthSamples.map(Named.init))
    func everyTruncationOfASampleIsRefused(sample: Named<Sample>) {
        let bytes = payload(of: ServerFrame(callID: 1, response: .streamItem(.samples([sample.value]))))
        guard bytes.count < 4_000 else { return }
        for length in 0..<bytes.count where length != 0 && length != 2 {
            // Cut to 0 or 2 bytes, nothing or only call_id is left: a frame with no response, which is valid.
            #expect(throws: undecodable("ServerFrame"), "cut to \(length) of \(bytes.count) bytes") {
                try WireCodec.decodeServerFrame(bytes[..<length])
            }
        }
    }

    @Test func metadataEntryOfTheWrongWireTypeIsRefused() {
        // samples { uuid: "u", category_value: 1, metadata (20) as a varint: 5 }
        let sample: [UInt8] = [0x0A, 0x01, 0x75, 0x58, 0x01, 0xA0, 0x01, 0x05]
        let page: [UInt8] = [0x0A, UInt8(sample.count)] + sample
        let item: [UInt8] = [0xA2, 0x03, UInt8(page.count)] + page
        #expect(throws: undecodable("ServerFrame")) {
            try WireCodec.decodeServerFrame(([0x08, 0x01, 0x1A, UInt8(item.count)] + item)[...])
        }
    }
}
