import BrokerCore
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
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes[...]) }
    }

    @Test func emptyStreamItemIsRefused() {
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x00]
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes[...]) }
    }

    @Test func emptyPromptEventIsRefused() {
        // ServerFrame { call_id: 1, stream_item { prompt_event {} } }
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x03, 0xF2, 0x06, 0x00]
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes[...]) }
    }

    @Test func promptEventOfAnUnknownKindIsRefused() {
        // ServerFrame { call_id: 1, stream_item { prompt_event { field 3: {} } } }
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, 0x05, 0xF2, 0x06, 0x02, 0x1A, 0x00]
        #expect(throws: undecodable("ServerFrame")) { try WireCodec.decodeServerFrame(bytes[...]) }
    }

    @Test func typeListCutInsideAnIdentifierIsRefused() {
        // Call { call_id: 1, read_characteristics (25) { types: declares 5 bytes, has 2 } }
        let bytes: [UInt8] = [0x0A, 0x09, 0x08, 0x01, 0xCA, 0x01, 0x04, 0x0A, 0x05, 0x61, 0x62]
        #expect(throws: undecodable("ClientFrame")) { try WireCodec.decodeClientFrame(bytes[...]) }
    }
}
