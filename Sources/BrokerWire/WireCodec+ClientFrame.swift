public import BrokerModel

// ClientFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ClientFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ClientFrame" when the bytes do not
    /// decode or no frame kind is set. A call whose request case is unset or unknown decodes with
    /// `Request.unknown`; a Save or AdminImport with a sample without a known value with
    /// `Request.invalid`.
    public static func decodeClientFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ClientFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeClientFrame(bytes) }
    }

    /// `decodeClientFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeClientFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ClientFrame {
        guard var message = Proto.ClientFrame.decode(payload) else { throw undecodable("ClientFrame") }
        return try ClientFrame(taking: &message)
    }

    /// Appends `frame` as a whole frame (5-byte header, then the encoded message) to `buffer`.
    public static func append(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        frame.proto.appendFrame(to: &buffer)
    }
}
