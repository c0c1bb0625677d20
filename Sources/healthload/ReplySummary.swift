/// What the load loop needs from one ServerFrame, read straight off the wire (no full decode).
///
/// ServerFrame: `call_id = 1` (varint), `status = 2` (a Status whose `code = 1`), `stream_item = 3`,
/// and the unary response cases at other field numbers.
struct ReplySummary: Sendable, Equatable {
    /// The call the frame answers (0: the connection itself).
    var callID: UInt64 = 0
    /// The status code, when the frame carries a status (a failed call, or a stream's end).
    var statusCode: Int32?
    /// Whether the frame is one item of a stream.
    var isStreamItem = false

    /// True when the frame ends its call: a status, or a unary response.
    var endsCall: Bool { statusCode != nil || !isStreamItem }

    /// The call's outcome code: the status's, or 0 (OK) for a response.
    var code: Int32 { statusCode ?? 0 }

    /// Scans one frame's message bytes (no header); nil when they are not a well-formed ServerFrame.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ReplySummary? {
        var reader = ProtobufReader(bytes)
        var summary = ReplySummary()
        while !reader.isAtEnd {
            guard let (field, wireType) = reader.readTag() else { return nil }
            switch (field, wireType) {
            case (1, ProtobufReader.varint):
                guard let id = reader.readVarint() else { return nil }
                summary.callID = id
            case (2, ProtobufReader.lengthDelimited):
                guard let range = reader.readLengthDelimited() else { return nil }
                guard let code = statusCode(UnsafeRawBufferPointer(rebasing: bytes[range])) else { return nil }
                summary.statusCode = code
            case (3, ProtobufReader.lengthDelimited):
                guard reader.readLengthDelimited() != nil else { return nil }
                summary.isStreamItem = true
            default:
                guard reader.skip(wireType: wireType) else { return nil }
            }
        }
        return summary
    }

    /// The `code` of a Status message (0 when absent).
    private static func statusCode(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        var reader = ProtobufReader(bytes)
        var code: Int32 = 0
        while !reader.isAtEnd {
            guard let (field, wireType) = reader.readTag() else { return nil }
            if field == 1 && wireType == ProtobufReader.varint {
                guard let value = reader.readVarint() else { return nil }
                code = Int32(truncatingIfNeeded: value)
            } else if !reader.skip(wireType: wireType) {
                return nil
            }
        }
        return code
    }
}
