/// A liveness call that answers after `delayMicros`, echoing `payload`.
public struct PingRequest: Sendable, Hashable {
    /// How long the broker waits (on a timer) before answering.
    public var delayMicros: Int64
    /// Bytes echoed back.
    public var payload: [UInt8]

    /// Creates a ping.
    public init(delayMicros: Int64 = 0, payload: [UInt8] = []) {
        self.delayMicros = delayMicros
        self.payload = payload
    }
}
