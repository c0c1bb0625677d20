public import Foundation
package import BrokerWire

/// What the broker said when the app session opened: its version, its limits and its clock.
public struct SessionInfo: Sendable, Hashable {
    /// The broker's release version.
    public let brokerVersion: String
    /// The wire protocol version the broker speaks.
    public let protocolVersion: UInt32
    /// The largest frame the broker accepts, in bytes.
    public let maxFrameBytes: UInt32
    /// The broker's wall clock when it answered Hello.
    public let brokerClock: Date
    /// The most calls this connection may have in flight at once.
    public let maxCallsInFlight: UInt32

    /// Creates session info (for tests and previews; `HealthStore.connect` fills the real one).
    public init(brokerVersion: String, protocolVersion: UInt32, maxFrameBytes: UInt32, brokerClock: Date, maxCallsInFlight: UInt32) {
        self.brokerVersion = brokerVersion
        self.protocolVersion = protocolVersion
        self.maxFrameBytes = maxFrameBytes
        self.brokerClock = brokerClock
        self.maxCallsInFlight = maxCallsInFlight
    }

    /// The session info a Hello response carries.
    package init(_ hello: HelloResponse) {
        self.init(
            brokerVersion: hello.brokerVersion, protocolVersion: hello.protocolVersion,
            maxFrameBytes: hello.maxFrameBytes, brokerClock: Date(microsecondsSince1970: hello.brokerTimeMicros),
            maxCallsInFlight: hello.maxCallsInFlight)
    }
}
