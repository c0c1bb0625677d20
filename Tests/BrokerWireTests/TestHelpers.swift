import BrokerModel
import Testing
@testable import BrokerWire

/// Frames `payload` by hand (flags byte, big-endian length), independently of `FrameHeader`.
func framed(_ payload: [UInt8], flags: UInt8 = 0) -> [UInt8] {
    let length = UInt32(payload.count)
    return [flags, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        + payload
}

/// `count` bytes of a recognisable pattern that depends on `seed`.
func patternBytes(_ count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 8) &+ seed &* 7) }
}

/// The single frame `bytes` holds, as its message bytes; fails the test if it is not exactly one frame.
func onlyFrame(in bytes: [UInt8], maxFrameBytes: Int = 8 << 20) throws -> ArraySlice<UInt8> {
    var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
    decoder.append(contentsOf: bytes)
    let frame = try #require(try decoder.nextFrame())
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 0)
    return frame
}

/// `frame` encoded, reframed and decoded again.
func roundTrip(_ frame: ClientFrame) throws -> ClientFrame {
    var buffer: [UInt8] = []
    WireCodec.append(frame, to: &buffer)
    return try WireCodec.decodeClientFrame(try onlyFrame(in: buffer))
}

/// `frame` encoded, reframed and decoded again.
func roundTrip(_ frame: ServerFrame) throws -> ServerFrame {
    var buffer: [UInt8] = []
    WireCodec.append(frame, to: &buffer)
    return try WireCodec.decodeServerFrame(try onlyFrame(in: buffer))
}

/// The message bytes (no header) of `frame` encoded.
func payload(of frame: ClientFrame) -> [UInt8] {
    var buffer: [UInt8] = []
    WireCodec.append(frame, to: &buffer)
    return Array(buffer.dropFirst(FrameDecoder.headerSize))
}

/// The message bytes (no header) of `frame` encoded.
func payload(of frame: ServerFrame) -> [UInt8] {
    var buffer: [UInt8] = []
    WireCodec.append(frame, to: &buffer)
    return Array(buffer.dropFirst(FrameDecoder.headerSize))
}

/// The error the codec raises for bytes that do not decode as `typeName`.
func undecodable(_ typeName: String) -> BrokerError {
    BrokerError(code: .invalidArgument, domain: .protocolError, message: "undecodable \(typeName)")
}

/// A test argument shown by a short name instead of its (possibly megabyte-long) description.
struct Named<Value: Sendable>: Sendable, CustomTestStringConvertible {
    /// What the test log shows.
    let testDescription: String
    /// The argument.
    let value: Value

    /// Names `value` by the start of its description.
    init(_ value: Value) {
        self.value = value
        let description = String(describing: value)
        testDescription = description.count > 100 ? description.prefix(100) + "…" : description
    }
}

extension ServerFrame {
    /// The frame's stream item as the model reads it (nil for none, or one the model cannot take).
    var item: StreamItem? {
        guard case .streamItem(let proto)? = response else { return nil }
        return try? StreamItem(proto: proto)
    }
}

/// The stream item of the ServerFrame `bytes` as the client's model reads it: throws when the frame
/// does not decode or holds no stream item the model can take.
func modelItem(_ bytes: ArraySlice<UInt8>) throws -> StreamItem {
    guard case .streamItem(let proto)? = try WireCodec.decodeServerFrame(bytes).response else {
        throw BrokerError.invalidArgument("no stream item")
    }
    return try StreamItem(proto: proto)
}
