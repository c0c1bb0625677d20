import BrokerWire

/// What the load loop needs from one ServerFrame: its call id, its status code and whether it is a
/// stream item, read from the generated message (no mapping to the client's model).
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

    /// Reads one frame's message bytes (no header); nil when they are not a well-formed ServerFrame.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ReplySummary? {
        guard let frame = Proto.ServerFrame.decode(bytes.assumingMemoryBound(to: UInt8.self)) else { return nil }
        var summary = ReplySummary(callID: frame.callID, statusCode: frame.status?.code.rawValue)
        if case .streamItem? = frame.response { summary.isStreamItem = true }
        return summary
    }
}
