import BrokerModel

/// How a connection reconnects: when to try, and how to reopen the session on a fresh socket.
struct Reconnection: Sendable {
    /// When to try.
    let policy: ReconnectPolicy
    /// How jitter is drawn and waits are made.
    let timing: ReconnectTiming
    /// Opens the session on a fresh connection (Hello); throws the broker's refusal.
    let handshake: @Sendable (ConnectionCore) async throws(BrokerError) -> Void

    /// True when a handshake error means the broker will not take this session back (a rotated
    /// token, a removed app, a uid no longer allowed): reconnecting stops for good.
    static func isRefusal(_ error: BrokerError) -> Bool {
        error.code == .unauthenticated || error.code == .permissionDenied
    }
}
