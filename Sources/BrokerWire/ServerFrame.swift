/// Every message the broker sends: a reply for one call id (or for the connection, id 0).
///
/// A unary call ends with one frame holding a response (status nil: OK) or a status. A stream gets
/// frames holding `.streamItem` responses, then one frame with a status that ends it.
public struct ServerFrame: Sendable, Hashable {
    /// The call this frame answers; 0 for the connection itself.
    public var callID: UInt64
    /// Set on a frame that ends a call with an error, and on a stream's final frame.
    public var status: Status?
    /// A unary result or one stream item, as the generated response; nil for none, or a case this
    /// build does not know.
    public var response: Proto.ServerFrame.Response?

    /// Creates a frame.
    public init(callID: UInt64, status: Status? = nil, response: Proto.ServerFrame.Response? = nil) {
        self.callID = callID
        self.status = status
        self.response = response
    }

    /// True when this frame ends its call.
    public var endsCall: Bool {
        if status != nil { return true }
        if case .streamItem = response { return false }
        return true
    }
}
