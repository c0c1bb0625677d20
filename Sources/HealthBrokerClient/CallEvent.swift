import BrokerModel
package import BrokerWire

/// What a waiting call is handed: a unary result, a stream item, a stream's end, or an error.
package enum CallEvent: Sendable, Equatable {
    /// A unary call's response (OK), as the generated message: the client method maps it.
    case response(Proto.ServerFrame.Response)
    /// One stream item, as the generated message (the consumer maps it); when `grant` > 0 the
    /// consumer sends a Credit frame for that many items.
    case item(Proto.StreamItem, grant: UInt32)
    /// A stream ended with OK.
    case end
    /// The call ended with this error.
    case failure(BrokerError)

    /// The event a frame that ends a unary call stands for.
    package static func unaryOutcome(of frame: Proto.ServerFrame) -> CallEvent {
        if let status = frame.status, let error = status.error { return .failure(error) }
        if let response = frame.response { return .response(response) }
        return .failure(.internal("the broker ended the call with neither a response nor an error"))
    }
}
