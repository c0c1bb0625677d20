import BrokerCore
import BrokerWire
import CLibUV

/// Owns one accepted `uv_pipe_t`: reads and unframes client frames, batches and writes replies.
///
/// Loop thread only. The handle keeps the object alive (a retained `Unmanaged` in `handle.data`)
/// until libuv's close callback, which frees the handle memory.
public final class PipeConnection {
    /// A number unique among this listener's connections.
    public let id: UInt64
    /// Who connected, from `SO_PEERCRED`.
    public private(set) var peer: PeerCredentials?
    /// Receives frames and the close; held weakly.
    public weak var delegate: PipeConnectionDelegate?
    /// State the server keeps for this connection.
    ///
    /// Read for every frame. A computed property over `storedContext`, because the attribute that
    /// drops the runtime exclusivity check does not reach a stored property's direct accesses from
    /// other modules.
    public var context: AnyObject? {
        get { storedContext }
        set { storedContext = newValue }
    }
    /// Loop-thread only and never accessed overlapping: no runtime exclusivity check.
    @exclusivity(unchecked) private var storedContext: AnyObject?

    let loop: EventLoop
    let handle: UnsafeMutablePointer<uv_pipe_t>
    var stream: UnsafeMutablePointer<uv_stream_t> { uvCast(handle, to: uv_stream_t.self) }
    // Loop-thread state touched for every frame: `@exclusivity(unchecked)` drops the runtime
    // exclusivity check (a thread-local access-set insert and remove per access). One thread, and
    // no access to these overlaps another: each is read or changed in one statement.
    @exclusivity(unchecked) var decoder: FrameDecoder
    /// True while `decoder.receive` hands frames from a read to the delegate: nothing may reach the
    /// decoder meanwhile (`deliverBufferedFrames` waits; that receive goes on delivering instead).
    @exclusivity(unchecked) var isReceiving = false
    let outputLimits: OutputLimits

    /// Encoded replies gathered during this loop turn, not yet handed to the kernel.
    @exclusivity(unchecked) var pendingOutput: [UInt8] = []
    @exclusivity(unchecked) var writeInFlight: WriteRequest?
    @exclusivity(unchecked) var isDirty = false
    var isReading = false
    var isPausedForOutput = false
    @exclusivity(unchecked) var closeWhenFlushed = false
    /// Counts output stalls, so a stall timer knows whether its stall is still the current one.
    var stallEpisode: UInt64 = 0
    /// The error that is closing the connection, reported to the delegate on close.
    var closingError: BrokerError?
    /// True once `close` ran.
    @exclusivity(unchecked) public private(set) var isClosed = false

    /// Output bytes queued and not yet accepted by the kernel.
    public var queuedOutputBytes: Int { pendingOutput.count + (writeInFlight?.byteCount ?? 0) }

    init?(loop: EventLoop, id: UInt64, maxFrameBytes: Int, outputLimits: OutputLimits) {
        self.loop = loop
        self.id = id
        self.outputLimits = outputLimits
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        handle = uvAllocate(uv_pipe_t.self)
        guard uv_pipe_init(loop.rawLoop, handle, 0) == 0 else {
            handle.deallocate()
            return nil
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    func didAccept() {
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
    @inline(__always)
    public func send(encodedBy encode: (inout [UInt8]) -> Void) {
        guard !isClosed, !closeWhenFlushed else { return }
        encode(&pendingOutput)
        loop.framesSent &+= 1
        if !isDirty {
            isDirty = true
            loop.markDirty(self)
        }
        if queuedOutputBytes >= outputLimits.highWater { pauseForOutput() }
    }

    /// Sends `error` as the connection's status (call id 0), then closes once it is written.
    public func close(with error: BrokerError) {
        guard !isClosed, !closeWhenFlushed else { return }
        closingError = error
        closeAfterSending(ServerFrame(callID: 0, status: Status(error)))
    }

    /// Queues `frame`, stops reading, and closes once everything queued is written (or after 1 s).
    public func closeAfterSending(_ frame: ServerFrame) {
        guard !isClosed, !closeWhenFlushed else { return }
        send(frame)
        closeWhenFlushed = true
        stopReading()
        // A peer that never reads must not keep the connection open.
        loop.schedule(afterMicros: 1_000_000) { [weak self] in self?.close() }
    }

    /// Sends `error` as the connection's status, tries one write, and closes at once (for shutdown).
    public func closeNow(with error: BrokerError) {
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
        guard !isClosed else { return }
        isClosed = true
        stopReading()
        pendingOutput = []
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<PipeConnection>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
        delegate?.connectionDidClose(self, error: closingError)
    }
}
