import HealthBrokerClient

/// Names for how a call ended: the broker's status codes, plus client-side outcomes (negative).
enum CallOutcome {
    /// The connection closed (or failed) with the call in flight.
    static let connectionClosed: Int32 = -1
    /// The call was still in flight when the drain deadline passed.
    static let clientTimeout: Int32 = -2
    /// The reply could not be read as a ServerFrame.
    static let malformedReply: Int32 = -3
    /// The reply decoded but did not hold what the operation should get (`--verify`).
    static let unexpectedReply: Int32 = -4

    /// The name of `code`: a status name such as `UNAVAILABLE`, or a client-side outcome.
    static func name(_ code: Int32) -> String {
        switch code {
        case connectionClosed: "CONNECTION_CLOSED"
        case clientTimeout: "CLIENT_TIMEOUT"
        case malformedReply: "MALFORMED_REPLY"
        case unexpectedReply: "UNEXPECTED_REPLY"
        default: StatusCode(rawValue: code)?.description ?? "STATUS_\(code)"
        }
    }
}
