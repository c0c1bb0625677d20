import BrokerModel
import BrokerWire

/// A multiplexed connection to the broker: many calls in flight at once, replies matched by call id.
///
/// Non-blocking Unix socket, read by one loop thread (`ClientLoop`); frames go out in order through a
/// bounded outbox that the loop drains, so no caller waits in `send(2)`. Call ids are 1, 2, 3, …
/// When the connection ends (EOF, `close()`, a connection-level error from the broker) every pending
/// call and stream fails — with UNAVAILABLE, or with the broker's connection-level status — and is
/// never retried. Without a `Reconnection` every later call then fails at once with UNAVAILABLE.
/// With one, the connection reconnects in the background (see `BrokerConnection+Reconnect`): calls
/// with a timeout wait for it up to that timeout, calls without fail at once. Releasing the last
/// reference closes it.
package final class BrokerConnection: Sendable {
    /// The current socket connection and the reconnection state.
    let link: Locked<Link>
    /// How to reconnect; nil: never.
    let reconnection: Reconnection?
    /// The socket path (or label) this connection was made with.
    package let socketPath: String
    /// The loop that reads this connection's sockets (every reconnection's too), and the executor
    /// that runs tasks on it.
    let loop: ClientLoop

    /// Wraps the open `core`, reconnecting per `reconnection` once it ends.
    init(core: ConnectionCore, reconnection: Reconnection? = nil) {
        self.link = Locked(Link(core: core))
        self.reconnection = reconnection
        self.socketPath = core.socketPath
        self.loop = core.loop
        watchEnd(of: core)
    }

    deinit {
        let (core, _, watchers) = endLink(.connectionClosed(socketPath, "the connection was released"))
        core.close(reason: "the connection was released")
        for watcher in watchers { watcher.finish() }
    }

    /// Connects to the broker socket at `socketPath` (no Hello is sent).
    ///
    /// Nothing listening there (ENOENT, ECONNREFUSED) is UNAVAILABLE with a message naming the path.
    package static func connect(socketPath: String) throws(BrokerError) -> BrokerConnection {
        BrokerConnection(core: try ConnectionCore.connect(socketPath: socketPath))
    }

    /// Wraps an already connected stream socket descriptor, which the connection owns from now on
    /// (tests use one end of a `socketpair`); `label` names it in error messages.
    package static func adopting(socketDescriptor fd: Int32, label: String) throws(BrokerError) -> BrokerConnection {
        BrokerConnection(core: try ConnectionCore.adopt(socketFD: fd, label: label))
    }

    /// True once the connection has ended for good; every new call then fails at once.
    package var isClosed: Bool {
        let (ended, core) = link.withLock { ($0.isEnded, $0.core) }
        return ended || (reconnection == nil && core.closedError != nil)
    }

    /// True while calls go straight to the broker (connected, and not closed or reconnecting).
    package var isConnected: Bool { liveUpCore != nil }

    /// The current connection if the link is up on it and it has not ended.
    var liveUpCore: ConnectionCore? {
        guard let core = link.withLock({ $0.upCore }), core.closedError == nil else { return nil }
        return core
    }

    /// Calls registered on the current socket connection and not yet finished from the caller's side.
    package var pendingCallCount: Int { currentCore.pendingCallCount }

    /// The current (or last) socket connection.
    var currentCore: ConnectionCore { link.withLock { $0.core } }

    /// Closes the connection for good; pending calls and streams fail with UNAVAILABLE, and so does
    /// every later call. Stops reconnecting. Idempotent.
    package func close() {
        let reason = "closed by the client"
        let (core, waiters, watchers) = endLink(.connectionClosed(socketPath, reason))
        core.close(reason: reason)
        for waiter in waiters { waiter.resume(returning: .failure(.connectionClosed(socketPath, reason))) }
        for watcher in watchers { watcher.finish() }
    }

    /// Writes `bytes` to the current socket as they are (tests send malformed frames with it).
    package func sendRaw(_ bytes: [UInt8]) throws(BrokerError) {
        try currentCore.sendRaw(bytes)
    }

    /// Ends the link with `error`; returns the current core and whom to resume and finish.
    private func endLink(_ error: BrokerError) -> (ConnectionCore, [Link.Waiter], [AsyncStream<ConnectionState>.Continuation]) {
        link.withLock { link in
            let (waiters, watchers) = link.end(error)
            return (link.core, waiters, watchers)
        }
    }
}
