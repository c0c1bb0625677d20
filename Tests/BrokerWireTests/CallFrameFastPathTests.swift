import BrokerModel
import Testing
@testable import BrokerWire

/// `WireCodec.decodeCallFrame`, the broker's fast path for a frame holding only a call: it gives the
/// call the whole frame's decoding gives, on every sample frame and on every truncation and bit flip
/// of those frames, and leaves everything else (cancel, credit, a call with more fields around it)
/// to `decodeClientFrameKind`.
@Suite("Call frames read straight into the call")
struct CallFrameFastPathTests {
    /// The message bytes (no header) of `frame`.
    private static func message(_ frame: ClientFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        return Array(bytes[FrameDecoder.headerSize...])
    }

    /// nil from the fast path, or the call the whole frame's decoding gives (compared packed: NaN).
    private static func agree(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let fast = WireCodec.decodeCallFrame(buffer) else { return true }
            guard case .call(let call)? = try? WireCodec.decodeClientFrameKind(buffer) else { return false }
            return fast.encoded() == call.encoded()
        }
    }

    @Test func everySampleCallIsReadAsTheFrameReadsIt() {
        var calls = 0
        for frame in Samples.clientFrames {
            let bytes = Self.message(frame)
            let fast = bytes.withUnsafeBufferPointer { WireCodec.decodeCallFrame($0) }
            if case .call = frame {
                // Every sample call the strict reader takes comes through the fast path.
                if (bytes.withUnsafeBufferPointer { buffer in
                    var reader = ProtoReader(buffer)
                    return Proto.ClientFrame(strict: &reader) != nil
                }) {
                    #expect(fast != nil, "\(frame)")
                }
                if fast != nil { calls += 1 }
            } else {
                #expect(fast == nil, "\(frame)")
            }
            #expect(Self.agree(bytes), "\(frame)")
        }
        #expect(calls > 10)
    }

    @Test func truncationsAndBitFlipsAgree() {
        for frame in Samples.clientFrames.prefix(40) {
            let bytes = Self.message(frame)
            guard bytes.count < 4_096 else { continue }
            for end in 0..<bytes.count {
                #expect(Self.agree(Array(bytes[..<end])), "\(frame) cut at \(end)")
            }
            for index in bytes.indices {
                for bit in 0..<8 {
                    var flipped = bytes
                    flipped[index] ^= 1 << bit
                    #expect(Self.agree(flipped), "\(frame) byte \(index) bit \(bit)")
                }
            }
        }
    }

    @Test func aCallWithAnythingAroundItTakesTheWholePath() {
        let ping = Self.message(.call(Call(callID: 7, request: .ping(PingRequest(payload: [1, 2, 3])))))
        let twice = ping + ping  // the oneof set twice: protobuf-c keeps the last
        let withCancel = ping + Self.message(.cancel(callID: 7))
        for bytes in [twice, withCancel] {
            #expect(bytes.withUnsafeBufferPointer { WireCodec.decodeCallFrame($0) } == nil)
            #expect(Self.agree(bytes))
        }
        let single = ping.withUnsafeBufferPointer { WireCodec.decodeCallFrame($0) }
        #expect(single?.callID == 7)
        guard case .ping(let request)? = single?.request else {
            Issue.record("no ping in \(String(describing: single))")
            return
        }
        #expect(request.payload == [1, 2, 3])
    }
}
