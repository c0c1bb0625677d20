public import BrokerModel
public import BrokerWire

/// What the broker needs from one client connection: queue reply frames, respect the output's
/// backpressure, hold bytes against the reading budget, close, and say who the peer is.
///
/// `PipeConnection` is the real one (a libuv pipe); tests drive the broker through an in-process
/// one. Nothing here names libuv. Loop thread only: every member runs on the thread of the
/// `EventLoop` the connection belongs to (conformers `assertInLoop()` as `PipeConnection` does).
/// Class-bound, so the broker can key its sessions by `ObjectIdentifier` and an existential is one
/// reference plus a witness table.
public protocol FrameConnection: AnyObject {
    /// A number unique among the connections of the socket it arrived on.
    var id: UInt64 { get }
    /// Who connected, when known.
    var peer: PeerCredentials? { get }
    /// State the server keeps for this connection (its session); read for every frame.
    var context: AnyObject? { get set }
    /// True once the connection is closed; nothing it is asked to send goes anywhere.
    var isClosed: Bool { get }
    /// True while a producer may queue a frame (the output is not over its high-water mark).
    var hasRoomForOutput: Bool { get }

    /// Queues one frame for the peer.
    func send(_ frame: ServerFrame)
    /// Queues one frame that `encode` appends, whole (header included), to the output buffer;
    /// `encode` must append exactly one frame and must not touch the connection.
    func send(encodedBy encode: (inout [UInt8]) -> Void)
    /// Runs `producer` once the output has room, after producers parked before it; dropped if the
    /// connection closes first.
    func whenRoomForOutput(_ producer: @escaping () -> Void)
    /// Counts `bytes` the server keeps for a call of this connection against its reading budget.
    func hold(_ bytes: Int)
    /// Gives back bytes counted by `hold`.
    func release(_ bytes: Int)
    /// Sends `error` as the connection's status (call id 0), then closes once it is written.
    func close(with error: BrokerError)
    /// Queues `frame`, stops reading, and closes once everything queued is written (or after
    /// `graceMicros`).
    func closeAfterSending(_ frame: ServerFrame, graceMicros: Int64)
    /// Sends `error` as the connection's status, tries one write, and closes at once (shutdown).
    func closeNow(with error: BrokerError)
}

extension FrameConnection {
    /// Queues `frame`, stops reading, and closes once everything queued is written (or after 1 s).
    public func closeAfterSending(_ frame: ServerFrame) {
        closeAfterSending(frame, graceMicros: 1_000_000)
    }
}
