public import BrokerModel

// ServerFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ServerFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ServerFrame" when the bytes do not
    /// decode, or hold a response the model cannot take (see `Response.init(proto:)`). An absent
    /// status decodes as nil; a response case this build does not know as nil.
    public static func decodeServerFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ServerFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeServerFrame(bytes) }
    }

    /// `decodeServerFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeServerFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ServerFrame {
        guard let message = Proto.ServerFrame.decode(payload) else { throw undecodable("ServerFrame") }
        return try ServerFrame(proto: message)
    }

    /// Appends `frame` as a whole frame (5-byte header, then the encoded message) to `buffer`.
    public static func append(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        frame.proto.appendFrame(to: &buffer)
    }
}
