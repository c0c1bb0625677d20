public import Foundation
package import BrokerWire

/// A ping's answer, or one item of a ping stream.
public struct PingReply: Sendable, Hashable {
    /// The payload sent with the ping, echoed back.
    public let payload: [UInt8]
    /// The broker's wall clock when it answered.
    public let brokerTime: Date
    /// A stream item's index (0, 1, 2, …); 0 for a single ping.
    public let sequence: UInt64

    /// Creates a ping reply (for tests and previews).
    public init(payload: [UInt8], brokerTime: Date, sequence: UInt64) {
        self.payload = payload
        self.brokerTime = brokerTime
        self.sequence = sequence
    }

    /// The reply a wire ping response stands for.
    package init(_ response: PingResponse) {
        self.init(
            payload: response.payload, brokerTime: Date(microsecondsSince1970: response.brokerTimeMicros),
            sequence: response.sequence)
    }
}
