/// A ping's answer, or one PingStream item.
public struct PingResponse: Sendable, Hashable {
    /// The request's payload.
    public var payload: [UInt8]
    /// The broker's wall clock when it answered.
    public var brokerTimeMicros: Int64
    /// A stream item's index (0, 1, 2, …); 0 for a unary ping.
    public var sequence: UInt64

    /// Creates a ping response.
    public init(payload: [UInt8] = [], brokerTimeMicros: Int64 = 0, sequence: UInt64 = 0) {
        self.payload = payload
        self.brokerTimeMicros = brokerTimeMicros
        self.sequence = sequence
    }
}
