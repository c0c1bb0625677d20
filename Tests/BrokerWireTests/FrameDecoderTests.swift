import BrokerModel
import Testing
@testable import BrokerWire

@Suite("FrameDecoder")
struct FrameDecoderTests {
    @Test func reassemblesAFrameSplitAtEveryByteBoundary() throws {
        let message = patternBytes(40, seed: 3)
        let bytes = framed(message)
        for split in 0...bytes.count {
            var decoder = FrameDecoder(maxFrameBytes: 1024)
            decoder.append(contentsOf: Array(bytes[..<split]))
            if split < bytes.count {
                #expect(try decoder.nextFrame() == nil, "split at \(split)")
                #expect(decoder.bufferedByteCount == split)
            }
            decoder.append(contentsOf: Array(bytes[split...]))
            let frame = try #require(try decoder.nextFrame(), "split at \(split)")
            #expect(Array(frame) == message, "split at \(split)")
            #expect(try decoder.nextFrame() == nil)
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func reassemblesARealFrameSplitAtEveryByteBoundaryThroughRawBuffers() throws {
        let original = ClientFrame.call(Call(
            callID: 77, request: .hello(HelloRequest(appID: "app.ü", appToken: "🔑", protocolVersion: 1))))
        var bytes: [UInt8] = []
        WireCodec.append(original, to: &bytes)
        for split in 0...bytes.count {
            var decoder = FrameDecoder(maxFrameBytes: 1024)
            bytes[..<split].withUnsafeBytes { decoder.append($0) }
            if split < bytes.count { #expect(try decoder.nextFrame() == nil) }
            bytes[split...].withUnsafeBytes { decoder.append($0) }
            let frame = try #require(try decoder.nextFrame())
            #expect(try WireCodec.decodeClientFrame(frame) == original)
        }
    }

    @Test func reassemblesFramesFedOneByteAtATime() throws {
        let messages = [patternBytes(7), [], patternBytes(260, seed: 1)]
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        var received: [[UInt8]] = []
        for byte in messages.flatMap({ framed($0) }) {
            withUnsafeBytes(of: byte) { decoder.append($0) }
            while let frame = try decoder.nextFrame() { received.append(Array(frame)) }
        }
        #expect(received == messages)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func returnsSeveralFramesFromOneAppend() throws {
        let messages = [patternBytes(3), [], patternBytes(200, seed: 9), [0]]
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        decoder.append(contentsOf: messages.flatMap { framed($0) } + framed(patternBytes(10)).prefix(7))
        for message in messages {
            #expect(try decoder.nextFrame().map(Array.init) == message)
        }
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 7)
    }

    @Test func refusesAnOversizedFrameAsSoonAsItsHeaderArrives() throws {
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        let header = framed(patternBytes(1025)).prefix(FrameDecoder.headerSize)
        decoder.append(contentsOf: Array(header.prefix(4)))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(contentsOf: [header.last!])
        let expected = BrokerError(
            code: .resourceExhausted, domain: .protocolError,
            message: "frame of 1025 bytes exceeds the limit of 1024 bytes")
        #expect(throws: expected) { try decoder.nextFrame() }
        // The decoder stays on the bad header: the connection is meant to close.
        #expect(throws: expected) { try decoder.nextFrame() }
    }

    @Test func refusesTheLargestDeclarableLengthWithoutWaiting() throws {
        var decoder = FrameDecoder(maxFrameBytes: 4 << 20)
        decoder.append(contentsOf: [0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: BrokerError(
            code: .resourceExhausted, domain: .protocolError,
            message: "frame of 4294967295 bytes exceeds the limit of 4194304 bytes")
        ) { try decoder.nextFrame() }
    }

    @Test func deliversGoodFramesBeforeAnOversizedOne() throws {
        var decoder = FrameDecoder(maxFrameBytes: 16)
        decoder.append(contentsOf: framed([1, 2, 3]) + [0, 0, 0, 0, 17])
        #expect(try decoder.nextFrame().map(Array.init) == [1, 2, 3])
        let error = #expect(throws: BrokerError.self) { try decoder.nextFrame() }
        #expect(error?.code == .resourceExhausted)
        #expect(error?.domain == .protocolError)
    }

    @Test func acceptsAFrameOfExactlyTheLimit() throws {
        var decoder = FrameDecoder(maxFrameBytes: 64)
        decoder.append(contentsOf: framed(patternBytes(64)))
        #expect(try decoder.nextFrame().map(Array.init) == patternBytes(64))
    }

    @Test(arguments: [UInt8(1), 0x02, 0x80, 0xFF])
    func refusesANonZeroFlagsByte(flags: UInt8) throws {
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        // Only the header: the flags are refused without waiting for the body.
        decoder.append(contentsOf: Array(framed(patternBytes(10), flags: flags).prefix(FrameDecoder.headerSize)))
        let error = #expect(throws: BrokerError.self) { try decoder.nextFrame() }
        #expect(error?.code == .invalidArgument)
        #expect(error?.domain == .protocolError)
    }

    @Test func returnsNilForAPartialFrameUntilItCompletes() throws {
        let message = patternBytes(100, seed: 4)
        let bytes = framed(message)
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        decoder.append(contentsOf: Array(bytes[..<3]))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(contentsOf: Array(bytes[3..<60]))
        #expect(try decoder.nextFrame() == nil)
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 60)
        decoder.append(contentsOf: Array(bytes[60..<104]))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(contentsOf: [bytes[104]])
        #expect(try decoder.nextFrame().map(Array.init) == message)
    }

    @Test func returnsAnEmptyPayloadFrame() throws {
        var decoder = FrameDecoder(maxFrameBytes: 0)
        decoder.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let first = try #require(try decoder.nextFrame())
        #expect(first.isEmpty)
        let second = try #require(try decoder.nextFrame())
        #expect(second.isEmpty)
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func ignoresEmptyAppends() throws {
        var decoder = FrameDecoder(maxFrameBytes: 8)
        decoder.append(contentsOf: [])
        [UInt8]().withUnsafeBytes { decoder.append($0) }
        #expect(decoder.bufferedByteCount == 0)
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func compactionKeepsWorkingAcrossThousandsOfFrames() throws {
        let frameCount = 20_000
        let maxMessage = 300
        let chunkSize = 997
        var stream: [UInt8] = []
        for index in 0..<frameCount {
            stream += framed(patternBytes((index &* 7) % (maxMessage + 1), seed: index))
        }
        var decoder = FrameDecoder(maxFrameBytes: maxMessage)
        var received = 0
        var largestStorage = 0
        var offset = 0
        while offset < stream.count {
            let end = min(offset + chunkSize, stream.count)
            stream[offset..<end].withUnsafeBytes { decoder.append($0) }
            offset = end
            largestStorage = max(largestStorage, decoder.storageByteCount)
            while let frame = try decoder.nextFrame() {
                let expected = patternBytes((received &* 7) % (maxMessage + 1), seed: received)
                guard Array(frame) == expected else {
                    Issue.record("frame \(received) differs")
                    return
                }
                received += 1
            }
        }
        #expect(received == frameCount)
        #expect(decoder.bufferedByteCount == 0)
        // Consumed bytes are dropped: the buffer stays within a partial frame, what was consumed
        // since the last compaction (no more than that partial frame) and one chunk.
        #expect(largestStorage <= 2 * (maxMessage + FrameDecoder.headerSize) + chunkSize)
    }

    @Test func compactionKeepsAPartialLargeFrameIntact() throws {
        let messages = (0..<50).map { patternBytes($0 % 2 == 0 ? 100_000 : 13, seed: $0) }
        let stream = messages.flatMap { framed($0) }
        var decoder = FrameDecoder(maxFrameBytes: 100_000)
        var received: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 65_536, stream.count)
            decoder.append(contentsOf: Array(stream[offset..<end]))
            offset = end
            while let frame = try decoder.nextFrame() { received.append(Array(frame)) }
        }
        #expect(received == messages)
        #expect(decoder.storageByteCount <= 2 * 100_005 + 65_536)
    }
}

/// A connection that opens with HTTP/2's preface gets its own refusal, not "flags byte is 80".
@Suite struct FrameDecoderHTTP2Tests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    @Test func theHTTP2PrefaceIsRecognisedAndRefusedByName() {
        var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
        decoder.append(contentsOf: Self.preface)
        #expect(decoder.startsWithHTTP2Preface)
        #expect(throws: FrameDecoder.http2Refusal) { _ = try decoder.nextFrame() }
        #expect(FrameDecoder.http2Refusal.message.contains("not gRPC over HTTP/2"))
    }

    @Test func otherBadFlagsKeepTheirMessageAndAreNotThePreface() throws {
        var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
        decoder.append(contentsOf: Array("POST / HTTP/1.1\r\n".utf8))
        #expect(!decoder.startsWithHTTP2Preface)
        let error = #expect(throws: BrokerError.self) { _ = try decoder.nextFrame() }
        #expect(error?.message == "frame flags byte is 80, expected 0")
        // Four bytes of the preface are not yet a header: nothing to say.
        var short = FrameDecoder(maxFrameBytes: 1 << 20)
        short.append(contentsOf: Array(Self.preface.prefix(4)))
        #expect(!short.startsWithHTTP2Preface)
        #expect(try short.nextFrame() == nil)
    }
}
