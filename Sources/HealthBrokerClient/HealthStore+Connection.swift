extension HealthStore {
    /// True while calls go straight to the broker: connected, not closed, not reconnecting.
    public var isConnected: Bool { connection.isConnected }

    /// The connection's state now and at every change, for apps that show it; a new sequence on each
    /// access.
    ///
    /// It starts with the current state. Without a reconnect policy it is `connected` until the
    /// connection ends, then `disconnected` and the end of the sequence. With one, a drop gives
    /// `disconnected`, then `connecting` and `connected` again (or `disconnected` with each failed
    /// attempt); it ends after a final `disconnected` once reconnecting stops (a refused Hello,
    /// attempts used up, `close()` or the store released). Only the newest 32 states are buffered.
    public var connectionStates: AsyncStream<ConnectionState> { connection.stateUpdates() }
}
