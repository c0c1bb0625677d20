import BrokerModel
import Testing
@testable import BrokerWire

@Suite("FrameDecoder.receive")
struct FrameDecoderReceiveTests {
    /// `decoder.receive` of `chunk`'s bytes with `body`.
    private func receive(
        _ chunk: [UInt8], into decoder: inout FrameDecoder, _ body: (UnsafeBufferPointer<UInt8>) throws(BrokerError) -> Bool
    ) throws(BrokerError) {
        var failure: BrokerError?
        chunk.withUnsafeBytes { bytes in
            do throws(BrokerError) {
                try decoder.receive(bytes, body)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Feeds `chunks` through `receive`, taking every frame; returns the frames' bytes in order.
    private func receiveAll(_ chunks: [[UInt8]], into decoder: inout FrameDecoder) throws(BrokerError) -> [[UInt8]] {
        var received: [[UInt8]] = []
        for chunk in chunks {
            try receive(chunk, into: &decoder) { payload in
                received.append(Array(payload))
                return true
            }
        }
        return received
    }

    @Test func takesWholeFramesInPlaceAndKeepsOnlyAPartialTail() throws {
        let messages = [patternBytes(3), [], patternBytes(200, seed: 9)]
        let tail = framed(patternBytes(10, seed: 4))
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        let received = try receiveAll([messages.flatMap { framed($0) } + tail.prefix(7)], into: &decoder)
        #expect(received == messages)
        #expect(decoder.bufferedByteCount == 7)
        // The next read completes the kept frame.
        #expect(try receiveAll([Array(tail.dropFirst(7))], into: &decoder) == [patternBytes(10, seed: 4)])
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func agreesWithNextFrameWhereverTheStreamIsCut() throws {
        let messages = [patternBytes(40, seed: 3), [], patternBytes(300, seed: 1), [7], patternBytes(5, seed: 2)]
        let stream = messages.flatMap { framed($0) }
        for first in stride(from: 0, through: stream.count, by: 3) {
            for second in stride(from: first, through: stream.count, by: 17) {
                var decoder = FrameDecoder(maxFrameBytes: 1024)
                let chunks = [Array(stream[..<first]), Array(stream[first..<second]), Array(stream[second...])]
                #expect(try receiveAll(chunks, into: &decoder) == messages, "cut at \(first), \(second)")
                #expect(decoder.bufferedByteCount == 0)
            }
        }
    }

    @Test func aDeclinedFrameLeavesTheRestForNextFrame() throws {
        let messages = [patternBytes(4), patternBytes(5, seed: 1), patternBytes(6, seed: 2)]
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        var taken: [[UInt8]] = []
        try receive(messages.flatMap { framed($0) }, into: &decoder) { payload in
            taken.append(Array(payload))
            return false  // paused after the first
        }
        #expect(taken == [messages[0]])
        #expect(try decoder.nextFrame().map(Array.init) == messages[1])
        #expect(try decoder.nextFrame().map(Array.init) == messages[2])
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func aBadHeaderThrowsAfterTheGoodFramesAndStaysBuffered() throws {
        let good = patternBytes(8)
        let stream = framed(good) + framed(patternBytes(3), flags: 1) + framed(good)
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        var taken: [[UInt8]] = []
        var failure: BrokerError?
        do {
            try receive(stream, into: &decoder) { payload in
                taken.append(Array(payload))
                return true
            }
        } catch {
            failure = error
        }
        #expect(failure?.code == .invalidArgument)
        #expect(taken == [good])
        #expect(decoder.bufferedByteCount == stream.count - framed(good).count)
        #expect(throws: BrokerError.self) { try decoder.nextFrame() }
    }

    @Test func refusesAnOversizedHeaderBeforeItsBody() {
        var decoder = FrameDecoder(maxFrameBytes: 16)
        let header = Array(framed(patternBytes(17)).prefix(5))
        var failure: BrokerError?
        do {
            _ = try receiveAll([header], into: &decoder)
        } catch {
            failure = error
        }
        #expect(failure?.code == .resourceExhausted)
    }

    @Test func anErrorFromTheBodyKeepsTheFramesAfterIt() throws {
        let messages = [patternBytes(4), patternBytes(5, seed: 1)]
        var decoder = FrameDecoder(maxFrameBytes: 1024)
        var failure: BrokerError?
        do {
            try receive(messages.flatMap { framed($0) }, into: &decoder) { _ throws(BrokerError) in
                throw BrokerError.invalidArgument("refused")
            }
        } catch {
            failure = error
        }
        #expect(failure?.message == "refused")
        #expect(try decoder.nextFrame().map(Array.init) == messages[1])
    }
}
