/// The broker's answer to Hello: its version, its limits and its clock.
public struct HelloResponse: Sendable, Hashable {
    /// The broker's release version.
    public var brokerVersion: String
    /// The protocol version the broker speaks.
    public var protocolVersion: UInt32
    /// The largest frame the broker accepts, in bytes.
    public var maxFrameBytes: UInt32
    /// The broker's wall clock, microseconds since the epoch.
    public var brokerTimeMicros: Int64
    /// The most calls one connection may have in flight.
    public var maxCallsInFlight: UInt32

    /// Creates a Hello response.
    public init(brokerVersion: String, protocolVersion: UInt32, maxFrameBytes: UInt32, brokerTimeMicros: Int64, maxCallsInFlight: UInt32) {
        self.brokerVersion = brokerVersion
        self.protocolVersion = protocolVersion
        self.maxFrameBytes = maxFrameBytes
        self.brokerTimeMicros = brokerTimeMicros
        self.maxCallsInFlight = maxCallsInFlight
    }
}
