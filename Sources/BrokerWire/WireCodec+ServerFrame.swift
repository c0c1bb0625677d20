public import BrokerModel

// ServerFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ServerFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ServerFrame" when the bytes do not
    /// decode. An absent status decodes as nil; a response case this build does not know as nil.
    public static func decodeServerFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ServerFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeServerFrame(bytes) }
    }

    /// `decodeServerFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeServerFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ServerFrame {
        guard let message = Proto.ServerFrame.decode(payload) else { throw undecodable("ServerFrame") }
        return ServerFrame(proto: message)
    }

    /// Appends `frame` as a whole frame (5-byte header, then the encoded message) to `buffer`.
    public static func append(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        if frame.status == nil, let response = frame.response {
            append(callID: frame.callID, response: response, to: &buffer)
        } else if let status = frame.status?.proto, frame.response == nil {
            Proto.ServerFrame.appendFrame(callID: frame.callID, status: status, to: &buffer)
        } else {
            frame.proto.appendFrame(to: &buffer)
        }
    }

    /// Appends a frame answering `callID` with the generated `response` and no status (a unary
    /// result or a stream item), as the broker replies.
    ///
    /// Save results and stream items go out through the generated per-case appenders, which write
    /// the frame without building a `Proto.ServerFrame` around the response.
    public static func append(callID: UInt64, response: Proto.ServerFrame.Response, to buffer: inout [UInt8]) {
        switch response {
        case .save(let save):
            Proto.ServerFrame.appendFrame(callID: callID, status: nil, save: save, to: &buffer)
        case .streamItem(let item):
            Proto.ServerFrame.appendFrame(callID: callID, status: nil, streamItem: item, to: &buffer)
        default:
            var frame = Proto.ServerFrame()
            frame.callID = callID
            frame.response = response
            frame.appendFrame(to: &buffer)
        }
    }
}

extension Proto.ServerFrame {
    /// True when this frame ends its call: it has a status, or a response that is not a stream item.
    public var endsCall: Bool {
        if status != nil { return true }
        if case .streamItem? = response { return false }
        return true
    }
}
