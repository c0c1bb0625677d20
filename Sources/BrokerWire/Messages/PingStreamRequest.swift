/// Asks for `count` ping items, sent no faster than the client grants credit.
public struct PingStreamRequest: Sendable, Hashable {
    /// How many items to stream.
    public var count: UInt32
    /// Bytes echoed in every item.
    public var payload: [UInt8]

    /// Creates a ping-stream request.
    public init(count: UInt32, payload: [UInt8] = []) {
        self.count = count
        self.payload = payload
    }
}
