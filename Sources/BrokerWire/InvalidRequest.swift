public import BrokerModel

/// A call whose method this build knows but whose arguments it cannot take as they came (a sample
/// without a value, or with a value kind this build does not know), with the error it is answered
/// with.
///
/// Decoding keeps such a call a call: the broker answers it on its own call id (INVALID_ARGUMENT
/// naming the field) instead of closing the connection and every stream on it. Only frames that do
/// not decode at all close a connection.
public struct InvalidRequest: Sendable, Hashable {
    /// The method's name, for logs and error messages.
    public var methodName: String
    /// The socket that serves the method: on the other one the call is PERMISSION_DENIED first.
    public var socket: Request.Socket
    /// What the call is answered with.
    public var error: BrokerError

    /// The invalid call of `method` (any request of the method's case: its arguments are not kept).
    public init(_ method: Request, error: BrokerError) {
        methodName = method.methodName
        socket = method.socket
        self.error = error
    }
}
