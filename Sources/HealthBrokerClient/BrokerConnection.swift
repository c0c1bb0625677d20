import BrokerCore
import BrokerWire

/// A multiplexed connection to the broker: many calls in flight at once, replies matched by call id.
///
/// Blocking Unix socket, one reader thread, writes serialised under a lock. Call ids are 1, 2, 3, …
/// When the connection ends (EOF, `close()`, a connection-level error from the broker) every pending
/// call and stream fails — with UNAVAILABLE, or with the broker's connection-level status — and every
/// later call fails at once with UNAVAILABLE. Releasing the last reference closes it.
package final class BrokerConnection: Sendable {
    /// The shared machinery; the reader thread holds it too.
    let core: ConnectionCore

    private init(core: ConnectionCore) {
        self.core = core
    }

    deinit {
        core.close(reason: "the connection was released")
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

    /// The socket path (or label) this connection was made with.
    package var socketPath: String { core.socketPath }

    /// True once the connection has ended; every new call then fails with UNAVAILABLE.
    package var isClosed: Bool { core.closedError != nil }

    /// Calls registered and not yet finished from the caller's side.
    package var pendingCallCount: Int { core.pendingCallCount }

    /// Closes the connection; pending calls and streams fail with UNAVAILABLE. Idempotent.
    package func close() {
        core.close(reason: "closed by the client")
    }

    /// Writes `bytes` to the socket as they are (tests send malformed frames with it).
    package func sendRaw(_ bytes: [UInt8]) throws(BrokerError) {
        try core.sendRaw(bytes)
    }
}
