public import BrokerModel
public import BrokerWire
import CLibUV

/// Owns one accepted `uv_pipe_t`: reads and unframes client frames, batches and writes replies.
///
/// Loop thread only (public entry points `assertInLoop()`). The handle keeps the object alive (a retained `Unmanaged` in `handle.data`)
/// until libuv's close callback, which frees the handle memory.
public final class PipeConnection: FrameConnection {
    /// A number unique among this listener's connections.
    public let id: UInt64
    /// Who connected, from `SO_PEERCRED`.
    public private(set) var peer: PeerCredentials?
    /// Receives frames and the close; held weakly, except that `frameReceiver` holds it from when
    /// it is set until the connection closes.
    public weak var delegate: PipeConnectionDelegate? {
        didSet {
            guard let delegate, !isClosed else {
                frameReceiver = nil
                return
            }
            frameReceiver = { connection, payload in delegate.connection(connection, didReceiveFrame: payload) }
        }
    }
    /// The delegate's `connection(_:didReceiveFrame:)`, bound once: a frame then costs no weak load,
    /// no exclusivity check and no retain of the delegate, whose retains all take the slow path (a
    /// broker is weakly referenced, so it has a side table): ~220 instructions a frame
    /// (benchmarks/PROFILE.md, "Frames to the broker without a weak load"). It holds the delegate
    /// strongly until `closeNow` drops it, which ends the cycle through the broker's sessions.
    @exclusivity(unchecked) var frameReceiver: ((PipeConnection, Span<UInt8>) -> Void)?
    /// State the server keeps for this connection.
    ///
    /// Read for every frame. A computed property over `storedContext`, because the attribute that
    /// drops the runtime exclusivity check does not reach a stored property's direct accesses from
    /// other modules.
    public var context: AnyObject? {
        get {
            loop.assertInLoop()
            return storedContext
        }
        set {
            loop.assertInLoop()
            storedContext = newValue
        }
    }
    /// Read for every frame, so without the run-time exclusivity check (benchmarks/PROFILE.md, item
    /// 9: ~75 instructions per access). Loop thread only, and only `context` touches it, in one
    /// statement per access.
    @exclusivity(unchecked) private var storedContext: AnyObject?

    let loop: EventLoop
    let handle: UnsafeMutablePointer<uv_pipe_t>
    var stream: UnsafeMutablePointer<uv_stream_t> { uvCast(handle, to: uv_stream_t.self) }
    // Loop-thread state touched for every frame or reply is marked `@exclusivity(unchecked)`: the
    // run-time exclusivity check (a thread-local access-set insert and remove per access) cost ~75
    // instructions each, measured with callgrind (benchmarks/PROFILE.md, item 9), on a ~2,000
    // instruction ping. Sound because they are loop-thread only (asserted at the entry points) and
    // no access overlaps another: each is read or changed in one statement, except the two noted.
    // State touched once per read or per turn keeps the check.

    /// Per frame. `decoder.receive` is one long access; its frame callback must not reach the decoder
    /// (`isReceiving` keeps `deliverBufferedFrames` out meanwhile).
    @exclusivity(unchecked) var decoder: FrameDecoder
    /// True while `decoder.receive` hands frames from a read to the delegate: nothing may reach the
    /// decoder meanwhile (`deliverBufferedFrames` waits; that receive goes on delivering instead).
    var isReceiving = false
    let outputLimits: OutputLimits
    /// How long a frame may take to arrive once its first byte came (0: no limit).
    let frameTimeoutMicros: Int64

    /// Encoded replies gathered during this loop turn, not yet handed to the kernel.
    ///
    /// Per reply. `send(encodedBy:)` and `flush` hold it across a call: the encoder must not touch
    /// the connection, and `flush` calls nothing inside its borrows that could (a `uv_write` that
    /// fails at once throws instead of running the completion; see `WriteRequest`).
    @exclusivity(unchecked) var pendingOutput: [UInt8] = []
    /// Per reply (through `queuedOutputBytes`).
    @exclusivity(unchecked) var writeInFlight: WriteRequest?
    /// Per reply.
    @exclusivity(unchecked) var isDirty = false
    var isReading = false
    /// True while frames are not read: queued output and held bytes together are at the mark.
    var isPausedForOutput = false
    /// True from the moment queued output reaches the high-water mark until it drains to the
    /// low-water mark. Producers wait meanwhile (`hasRoomForOutput`), and the stall timer runs.
    /// Per reply (`hasRoomForOutput`, `send`).
    @exclusivity(unchecked) var isOutputFull = false
    /// Bytes the server holds for this connection's calls in flight (`hold`, `release`): reading
    /// stops while they and the queued output together reach the high-water mark. Per reply
    /// (`isOverReadingBudget` in `send`).
    @exclusivity(unchecked) public private(set) var heldBytes = 0
    /// Producers waiting for room in the output queue, run in order as it drains (`whenRoomForOutput`).
    var parkedProducers: [(() -> Void)?] = []
    /// The first parked producer not yet run.
    var parkedHead = 0
    /// Frames handed to the delegate so far; tells the frame timer whether its frame completed.
    /// Per frame.
    @exclusivity(unchecked) var framesReceived: UInt64 = 0
    /// When the partial frame in the decoder started to arrive, and `framesReceived` then.
    var partialFrameStart: (micros: Int64, frames: UInt64)?
    /// The timer that enforces `frameTimeoutMicros`, while armed.
    var frameTimer: TimerToken?
    /// True once a final frame is queued: the connection closes when its output is written. Per
    /// frame and reply.
    @exclusivity(unchecked) var closeWhenFlushed = false
    /// Counts output stalls, so a stall timer knows whether its stall is still the current one.
    var stallEpisode: UInt64 = 0
    /// The error that is closing the connection, reported to the delegate on close.
    var closingError: BrokerError?
    /// True once `close` ran. Per frame and reply.
    @exclusivity(unchecked) public private(set) var isClosed = false

    /// Output bytes queued and not yet accepted by the kernel.
    ///
    /// Read for every frame sent; inlined so that `send(encodedBy:)`'s `FrameConnection` witness,
    /// which the broker calls, does not call out for it (~24 instructions a reply, callgrind).
    @inline(__always)
    public var queuedOutputBytes: Int { pendingOutput.count + (writeInFlight?.byteCount ?? 0) }

    init?(loop: EventLoop, id: UInt64, maxFrameBytes: Int, outputLimits: OutputLimits, frameTimeoutMicros: Int64 = 0) {
        self.loop = loop
        self.id = id
        self.outputLimits = outputLimits
        self.frameTimeoutMicros = frameTimeoutMicros
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        handle = uvAllocate(uv_pipe_t.self)
        guard uv_pipe_init(loop.rawLoop, handle, 0) == 0 else {
            handle.deallocate()
            return nil
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    func didAccept() {
        loop.assertInLoop()
        var fd: uv_os_fd_t = -1
        if uv_fileno(uvCast(handle, to: uv_handle_t.self), &fd) == 0 {
            peer = PeerCredentials.read(fd: fd)
        }
    }

    /// Queues one frame; it is written at the end of this loop turn with the turn's other replies.
    public func send(_ frame: ServerFrame) {
        send { WireCodec.append(frame, to: &$0) }
    }

    /// Queues one frame that `encode` appends, whole (header included), to the output buffer: for
    /// replies the server encodes without building a `ServerFrame`. `encode` must append exactly one
    /// frame and must not touch this connection.
    ///
    /// Queues even without room: producers ask `hasRoomForOutput` first and park when it is false,
    /// so the queue passes the high-water mark by at most the one frame that reached it.
    @inline(__always)
    public func send(encodedBy encode: (inout [UInt8]) -> Void) {
        loop.assertInLoop()
        guard !isClosed, !closeWhenFlushed else { return }
        encode(&pendingOutput)
        loop.framesSent &+= 1
        markDirty()
        if queuedOutputBytes >= outputLimits.highWater { outputBecameFull() }
        if isOverReadingBudget { pauseForOutput() }
    }

    /// True while a producer may queue a frame: the output has not reached the high-water mark since
    /// it last drained to the low-water mark.
    public var hasRoomForOutput: Bool {
        loop.assertInLoop()
        return !isOutputFull && !isClosed && !closeWhenFlushed
    }

    /// Runs `producer` on the loop thread once the output has room, after the producers parked
    /// before it; dropped if the connection closes first.
    ///
    /// A producer finding no room calls this instead of queuing: so replies from timers and the
    /// store, and stream items, wait for the peer instead of growing the broker's memory.
    public func whenRoomForOutput(_ producer: @escaping () -> Void) {
        loop.assertInLoop()
        guard !isClosed, !closeWhenFlushed else { return }
        parkedProducers.append(producer)
        // With room already, run it at the end of this turn (`flush` runs parked producers).
        if !isOutputFull { markDirty() }
    }

    /// Counts `bytes` the server keeps for a call of this connection (its request, say) until
    /// `release`: reading stops while held and queued bytes together reach the high-water mark.
    public func hold(_ bytes: Int) {
        loop.assertInLoop()
        heldBytes += bytes
        if isOverReadingBudget { pauseForOutput() }
    }

    /// Gives back bytes counted by `hold`; reading resumes at the end of the turn if it may.
    public func release(_ bytes: Int) {
        loop.assertInLoop()
        heldBytes -= bytes
        if isPausedForOutput, !isClosed { markDirty() }
    }

    /// True when reading must wait: queued output and held bytes together reach the high-water mark.
    ///
    /// Read for every frame sent: inlined for the same reason as `queuedOutputBytes`.
    @inline(__always)
    var isOverReadingBudget: Bool { queuedOutputBytes + heldBytes >= outputLimits.highWater }

    func markDirty() {
        if !isDirty {
            isDirty = true
            loop.markDirty(self)
        }
    }

    /// Sends `text` as is (not a frame: for a peer that does not speak the framing), then closes once
    /// it is written; `error` is what the close reports (and the broker logs).
    public func close(with error: BrokerError, plainText text: String) {
        loop.assertInLoop()
        guard !isClosed, !closeWhenFlushed else { return }
        closingError = error
        send(encodedBy: { $0.append(contentsOf: text.utf8) })
        closeWhenFlushed = true
        dropParkedProducers()
        stopReading()
        loop.schedule(afterMicros: 1_000_000) { [weak self] in self?.close() }
    }

    /// Sends `error` as the connection's status (call id 0), then closes once it is written.
    public func close(with error: BrokerError) {
        loop.assertInLoop()
        guard !isClosed, !closeWhenFlushed else { return }
        closingError = error
        closeAfterSending(ServerFrame(callID: 0, status: Status(error)))
    }

    /// Queues `frame`, stops reading, and closes once everything queued is written (or after
    /// `graceMicros`, 1 s unless given).
    public func closeAfterSending(_ frame: ServerFrame, graceMicros: Int64 = 1_000_000) {
        loop.assertInLoop()
        guard !isClosed, !closeWhenFlushed else { return }
        send(frame)
        closeWhenFlushed = true
        dropParkedProducers()
        stopReading()
        // A peer that never reads must not keep the connection open.
        loop.schedule(afterMicros: graceMicros) { [weak self] in self?.close() }
    }

    /// Sends `error` as the connection's status, tries one write, and closes at once (for shutdown).
    public func closeNow(with error: BrokerError) {
        loop.assertInLoop()
        guard !isClosed else { return }
        if !closeWhenFlushed { send(ServerFrame(callID: 0, status: Status(error))) }
        closingError = closingError ?? error
        if writeInFlight == nil { flush() }
        closeNow()
    }

    /// Closes now, dropping unwritten output; the delegate hears of it at once.
    public func close() {
        closeNow()
    }

    func closeNow() {
        loop.assertInLoop()
        guard !isClosed else { return }
        isClosed = true
        stopReading()
        pendingOutput = []
        dropParkedProducers()
        if let timer = frameTimer { loop.cancelTimer(timer) }
        frameTimer = nil
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<PipeConnection>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
        delegate?.connectionDidClose(self, error: closingError)
        frameReceiver = nil
    }
}
