/// Every message a client sends: a call, a cancel of a call, or more credit for a stream.
public enum ClientFrame: Sendable, Hashable {
    /// Starts a call.
    case call(Call)
    /// Ends the call with this id early (the broker answers CANCELLED).
    case cancel(callID: UInt64)
    /// Lets a streaming call send `items` more stream items.
    case credit(callID: UInt64, items: UInt32)
}
