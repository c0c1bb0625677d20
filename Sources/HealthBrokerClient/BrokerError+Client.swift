import BrokerModel

/// Errors the client raises on its own, without a word from the broker.
extension BrokerError {
    /// The call was cancelled by the caller (Swift task cancellation or a dropped stream).
    static let callCancelled = BrokerError(code: .cancelled, message: "the call was cancelled")

    /// The broker did not answer by the call's deadline (plus the client's grace period).
    static let clientDeadlineExceeded = BrokerError(
        code: .deadlineExceeded, message: "the broker did not answer before the deadline")

    /// The call's timeout was zero or negative, so it was never sent.
    static let timeoutAlreadyPassed = BrokerError(
        code: .deadlineExceeded, message: "the call's timeout had already passed when it started")

    /// The connection is gone; `reason` says why.
    static func connectionClosed(_ socketPath: String, _ reason: String) -> BrokerError {
        BrokerError(code: .unavailable, message: "the connection to the broker at \(socketPath) is closed: \(reason)")
    }

    /// The broker answered a method with a response of another method.
    static func unexpectedResponse(_ method: String) -> BrokerError {
        .internal("the broker answered \(method) with an unexpected response")
    }

    /// The broker sent bytes that are not a valid frame.
    static func malformedReply(_ error: BrokerError) -> BrokerError {
        .internal("the broker sent a malformed frame: \(error.message)")
    }

    /// The client stopped reconnecting after `attempts` failed attempts; `last` is why the last failed.
    static func reconnectGaveUp(_ socketPath: String, attempts: Int, last: BrokerError?) -> BrokerError {
        BrokerError(code: .unavailable, message: "gave up reconnecting to the broker at \(socketPath) after \(attempts) attempts" + (last.map { ": \($0.message)" } ?? ""))
    }
}
