public import BrokerModel
import HealthBrokerProto

// ServerFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ServerFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ServerFrame" when the bytes do not
    /// decode. An absent status decodes as nil; a response case this build does not know as nil.
    ///
    /// Stream items carrying pages of samples (WireCodec+DirectSampleDecoding) and the frames
    /// answered per call (WireCodec+DirectReplyDecoding) are decoded directly, to the same value.
    public static func decodeServerFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ServerFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeServerFrame(bytes) }
    }

    /// `decodeServerFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeServerFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ServerFrame {
        if let direct = decodeSamplePageServerFrame(payload) ?? decodeReplyServerFrame(payload) { return direct }
        return try decodeServerFrameUnpacked(payload)
    }

    /// `decodeServerFrame` through protobuf-c, whatever the bytes; the reference the direct decoding matches.
    static func decodeServerFrameUnpacked(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ServerFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeServerFrameUnpacked(bytes) }
    }

    /// `decodeServerFrameUnpacked` of message bytes in place.
    static func decodeServerFrameUnpacked(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ServerFrame {
        try withUnpacked(
            payload,
            unpack: healthbroker__v1__server_frame__unpack,
            free: healthbroker__v1__server_frame__free_unpacked
        ) { message throws(BrokerError) in
            guard let message else { throw undecodable("ServerFrame") }
            return ServerFrame(
                callID: message.pointee.call_id,
                status: message.pointee.status.map { status($0) },
                response: try response(message))
        }
    }

    /// Appends `frame` as a whole frame (5-byte header, then the packed message) to `buffer`.
    ///
    /// The frames answered per call (a status alone, Ping, AuthorizationStatus, RequestStatus and the
    /// two sample-date methods) and stream items carrying pages of samples are encoded directly, to
    /// the same bytes (WireCodec+DirectEncoding, WireCodec+DirectSampleEncoding).
    public static func append(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        if encodesDirectly(frame) {
            appendDirectly(frame, to: &buffer)
            return
        }
        appendPacked(frame, to: &buffer)
    }

    /// `append` through protobuf-c, whatever the frame; the reference the direct encoding matches.
    static func appendPacked(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        var message = Healthbroker__V1__ServerFrame()
        healthbroker__v1__server_frame__init(&message)
        message.call_id = frame.callID
        withUnsafeMutablePointer(to: &message) { message in
            withCStatus(frame.status) { status in
                message.pointee.status = status
                withCResponse(frame.response, in: message) {
                    appendFrame(
                        message, to: &buffer,
                        packedSize: healthbroker__v1__server_frame__get_packed_size,
                        pack: healthbroker__v1__server_frame__pack)
                }
            }
        }
    }
}
