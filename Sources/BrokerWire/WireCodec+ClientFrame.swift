public import BrokerModel
import HealthBrokerProto

// ClientFrame: decoding a frame's message bytes and appending an encoded frame.
extension WireCodec {
    /// Decodes one frame's message bytes (no header) as a ClientFrame.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) "undecodable ClientFrame" when the bytes do not
    /// decode or no frame kind is set. A call whose request case is unset or unknown decodes with
    /// `Request.unknown`.
    ///
    /// The common per-call shapes are decoded directly (WireCodec+DirectDecoding), to the same value.
    public static func decodeClientFrame(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ClientFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeClientFrame(bytes) }
    }

    /// `decodeClientFrame` of message bytes in place (as `FrameDecoder.receive` hands them).
    public static func decodeClientFrame(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ClientFrame {
        if let frame = decodeCommonClientFrame(payload) { return frame }
        return try decodeClientFrameUnpacked(payload)
    }

    /// `decodeClientFrame` through protobuf-c, whatever the bytes; the reference the direct decoding matches.
    static func decodeClientFrameUnpacked(_ payload: ArraySlice<UInt8>) throws(BrokerError) -> ClientFrame {
        try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try decodeClientFrameUnpacked(bytes) }
    }

    /// `decodeClientFrameUnpacked` of message bytes in place.
    static func decodeClientFrameUnpacked(_ payload: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> ClientFrame {
        try withUnpacked(
            payload,
            unpack: healthbroker__v1__client_frame__unpack,
            free: healthbroker__v1__client_frame__free_unpacked
        ) { message throws(BrokerError) in
            guard let message else { throw undecodable("ClientFrame") }
            return try clientFrame(message)
        }
    }

    /// Appends `frame` as a whole frame (5-byte header, then the packed message) to `buffer`.
    ///
    /// The frames sent per call (a Call holding a Ping, AuthorizationStatus or
    /// EarliestAuthorizedSampleDate request, a Cancel, a Credit) are encoded directly, to the same
    /// bytes (WireCodec+DirectClientEncoding).
    public static func append(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        if encodesDirectly(frame) {
            appendDirectly(frame, to: &buffer)
            return
        }
        appendPacked(frame, to: &buffer)
    }

    /// `append` through protobuf-c, whatever the frame; the reference the direct encoding matches.
    static func appendPacked(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        var message = Healthbroker__V1__ClientFrame()
        healthbroker__v1__client_frame__init(&message)
        switch frame {
        case .call(let call):
            withCCall(call) { call in
                message.kind_case = HEALTHBROKER__V1__CLIENT_FRAME__KIND_CALL
                message.call = call
                appendClientFrame(&message, to: &buffer)
            }
        case .cancel(let callID):
            var cancel = Healthbroker__V1__Cancel()
            healthbroker__v1__cancel__init(&cancel)
            cancel.call_id = callID
            withUnsafeMutablePointer(to: &cancel) { cancel in
                message.kind_case = HEALTHBROKER__V1__CLIENT_FRAME__KIND_CANCEL
                message.cancel = cancel
                appendClientFrame(&message, to: &buffer)
            }
        case .credit(let callID, let items):
            var credit = Healthbroker__V1__Credit()
            healthbroker__v1__credit__init(&credit)
            credit.call_id = callID
            credit.items = items
            withUnsafeMutablePointer(to: &credit) { credit in
                message.kind_case = HEALTHBROKER__V1__CLIENT_FRAME__KIND_CREDIT
                message.credit = credit
                appendClientFrame(&message, to: &buffer)
            }
        }
    }

    /// The Swift form of an unpacked ClientFrame; a frame with no kind set is undecodable.
    static func clientFrame(_ message: UnsafePointer<Healthbroker__V1__ClientFrame>) throws(BrokerError) -> ClientFrame {
        let frame = message.pointee
        switch frame.kind_case {
        case HEALTHBROKER__V1__CLIENT_FRAME__KIND_CALL:
            return .call(try call(try present(frame.call, in: "ClientFrame")))
        case HEALTHBROKER__V1__CLIENT_FRAME__KIND_CANCEL:
            return .cancel(callID: try present(frame.cancel, in: "ClientFrame").pointee.call_id)
        case HEALTHBROKER__V1__CLIENT_FRAME__KIND_CREDIT:
            let credit = try present(frame.credit, in: "ClientFrame")
            return .credit(callID: credit.pointee.call_id, items: credit.pointee.items)
        default:
            throw undecodable("ClientFrame")
        }
    }

    /// Appends the header and the packed `message` to `buffer`.
    @inline(__always)
    private static func appendClientFrame(_ message: inout Healthbroker__V1__ClientFrame, to buffer: inout [UInt8]) {
        appendFrame(
            &message, to: &buffer,
            packedSize: healthbroker__v1__client_frame__get_packed_size,
            pack: healthbroker__v1__client_frame__pack)
    }
}
