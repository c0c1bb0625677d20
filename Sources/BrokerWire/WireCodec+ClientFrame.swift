public import BrokerModel

// ClientFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ClientFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ClientFrame" when the bytes do not
    /// decode or no frame kind is set. A call whose request case is unset or unknown decodes with a
    /// nil request; a Save or AdminImport with a sample without a known value decodes as it came
    /// (its request's `contentError` says what the broker answers).
    public static func decodeClientFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ClientFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeClientFrame(bytes) }
    }

    /// `decodeClientFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeClientFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ClientFrame {
        guard var message = Proto.ClientFrame.decode(payload) else { throw undecodable("ClientFrame") }
        return try ClientFrame(taking: &message)
    }

    /// Decodes one frame's message bytes (no header) as the generated ClientFrame's kind, for the
    /// broker, which dispatches on the generated request.
    ///
    /// Throws as `decodeClientFrame` does: "undecodable ClientFrame" when the bytes do not decode or
    /// no frame kind is set. A call's request case is nil when unset or unknown to this build.
    public static func decodeClientFrameKind(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> Proto.ClientFrame.Kind {
        guard var message = Proto.ClientFrame.decode(payload), let kind = message.kind.take() else {
            throw undecodable("ClientFrame")
        }
        return kind
    }

    /// The call of a ClientFrame whose bytes are one `call` field and nothing else, read strictly
    /// straight into a `Proto.Call`; nil for any other frame, and whenever the strict reader declines
    /// the bytes (then `decodeClientFrameKind` decodes them, through protobuf-c if need be).
    ///
    /// It takes exactly the path the strict ClientFrame reader takes for such bytes (the same key,
    /// length and Call reader), so a call it returns is the one `decodeClientFrameKind` would: the
    /// fuzzer checks the two agree. It saves the frame's oneof, which holds a call in a box that is
    /// allocated, copied out of and freed for every call.
    @inline(__always)
    public static func decodeCallFrame(_ payload: UnsafeBufferPointer<UInt8>) -> Proto.Call? {
        var reader = ProtoReader(payload)
        guard reader.key() == 10, var nested = reader.nested(), reader.isAtEnd else { return nil }
        var call = Proto.Call()
        guard call.mergeStrict(&nested) else { return nil }
        return call
    }

    /// Appends `frame` as a whole frame (5-byte header, then the encoded message) to `buffer`.
    public static func append(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        frame.proto.appendFrame(to: &buffer)
    }
}

extension Proto.Call.Request {
    /// The error for a well-formed request whose content this build cannot take (a Save's or
    /// AdminImport's sample without a value kind it knows), answered on the call's own id instead of
    /// closing the connection; nil for any other request.
    public var contentError: BrokerError? {
        switch self {
        case .save(let request): Sample.valueError(in: request.samples)
        case .adminImport(let request): Sample.valueError(in: request.samples)
        default: nil
        }
    }
}
