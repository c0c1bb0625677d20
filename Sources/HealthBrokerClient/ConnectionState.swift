import BrokerModel

/// Where a `HealthStore`'s connection to the broker stands, as `connectionStates` reports it.
public enum ConnectionState: Sendable, Hashable {
    /// A reconnection attempt is under way (connecting and replaying Hello).
    case connecting
    /// The session is open: calls go to the broker.
    case connected
    /// The connection is down, for this reason. With a reconnect policy the store keeps trying
    /// unless the reason is final (a refused Hello, attempts used up, or `close()`), after which the
    /// state sequence ends.
    case disconnected(BrokerError)
}
