public import BrokerModel

/// A call whose method this build knows but whose arguments it cannot take as they came (a sample
/// without a value, or with a value kind this build does not know), with the error it is answered
/// with.
///
/// Decoding keeps such a call a call: the broker answers it on its own call id (INVALID_ARGUMENT
/// naming the field) instead of closing the connection and every stream on it. Only frames that do
/// not decode at all close a connection.
public struct InvalidRequest: Sendable, Hashable {
    /// The method called.
    public var method: ProtoMethod
    /// What the call is answered with.
    public var error: BrokerError

    /// The invalid call of `method`.
    public init(method: ProtoMethod, error: BrokerError) {
        self.method = method
        self.error = error
    }

    /// The invalid call of `request`'s method (any request of the method's case: its arguments are
    /// not kept); `request` must not be `.unknown`.
    public init(_ request: Request, error: BrokerError) {
        guard let method = request.method else { preconditionFailure("an unknown request has no method to be invalid") }
        self.init(method: method, error: error)
    }

    /// The method's name, for logs and error messages.
    public var methodName: String { method.name }

    /// The socket that serves the method: on the other one the call is PERMISSION_DENIED first.
    public var socket: Request.Socket { method.socket }
}
