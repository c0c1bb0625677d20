/// Who reads a connection's socket now (see `CallTable+Reader`): its loop's thread, the caller of
/// one solo unary call (a "hold", see `ConnectionCore+Hold`), or nobody (nothing is in flight).
package enum SocketReader: Equatable, Sendable {
    /// The loop's thread reads (it polls the socket with `POLLIN`).
    case loop
    /// The caller of unary call `id` reads, on its own thread, for a short bounded time.
    case holder(UInt64)
    /// Nobody reads: no call is registered.
    case nobody
}
