import BrokerModel
@testable import BrokerTransport
import BrokerWire

/// A connection that lives in the test process, in the manner of swift-nio's `EmbeddedChannel`:
/// the test hands the broker client frames (`receive`) and reads back the server frames the broker
/// queued (`takeFrames`), and decides whether the peer is taking output (`isTakingOutput`).
///
/// Loop thread only, as `PipeConnection` is: the test's thread made the broker's loop and runs it.
final class InProcessConnection: FrameConnection {
    let id: UInt64
    let peer: PeerCredentials?
    private let loop: EventLoop
    /// Where frames go and where the close is reported (the broker's `receive` and `didClose`).
    private let deliver: (Span<UInt8>, InProcessConnection) -> Void
    private let reportClose: (InProcessConnection, BrokerError?) -> Void

    private var storedContext: AnyObject?
    var context: AnyObject? {
        get {
            loop.assertInLoop()
            return storedContext
        }
        set {
            loop.assertInLoop()
            storedContext = newValue
        }
    }

    private(set) var isClosed = false
    /// True once a final frame is queued: the connection closes at the next loop turn, as a
    /// `PipeConnection` closes once its output is written.
    private(set) var isClosing = false
    /// The error the connection was closed with (`close(with:)`, `closeNow(with:)`), if any.
    private(set) var closingError: BrokerError?
    /// Bytes the broker holds for this connection's calls in flight (`hold` minus `release`).
    private(set) var heldBytes = 0
    /// The most bytes held at once so far.
    private(set) var peakHeldBytes = 0
    /// Frames the broker queued, not yet decoded by `takeFrames`.
    private var output = FrameDecoder(maxFrameBytes: 64 * 1024 * 1024)
    /// Producers waiting for room, in order (`whenRoomForOutput`).
    private var parkedProducers: [() -> Void] = []
    /// Producers parked so far (each counted once, when it parked).
    private(set) var producersParked = 0

    /// Whether the peer takes output: false models a peer whose queue is at the high-water mark
    /// (`hasRoomForOutput` false, producers park); setting it back to true runs parked producers
    /// in order while there is room, as a draining `PipeConnection` does.
    var isTakingOutput = true {
        didSet {
            loop.assertInLoop()
            if isTakingOutput { runParkedProducers() }
        }
    }

    init(
        id: UInt64, peer: PeerCredentials?, loop: EventLoop,
        deliver: @escaping (Span<UInt8>, InProcessConnection) -> Void,
        reportClose: @escaping (InProcessConnection, BrokerError?) -> Void
    ) {
        self.id = id
        self.peer = peer
        self.loop = loop
        self.deliver = deliver
        self.reportClose = reportClose
    }

    // MARK: The test's side

    /// Hands one client frame to the broker, encoded and unframed as the real read path does
    /// (`WireCodec.append`, then the 5-byte header checked and removed). Dropped once closing, as a
    /// `PipeConnection` stops reading then.
    func receive(_ frame: ClientFrame) {
        loop.assertInLoop()
        guard !isClosed, !isClosing else { return }
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        var decoder = FrameDecoder(maxFrameBytes: 64 * 1024 * 1024)
        decoder.append(contentsOf: bytes)
        // A frame the codec made always unframes whole.
        let payload = Array(try! decoder.nextFrame()!)
        deliver(payload.span, self)
    }

    /// Decodes and removes every frame the broker queued so far.
    func takeFrames() throws -> [ServerFrame] {
        var frames: [ServerFrame] = []
        while let payload = try output.nextFrame() {
            frames.append(try WireCodec.decodeServerFrame(payload))
        }
        return frames
    }

    /// Closes from the peer's side (a client that went away); the broker hears of it at once.
    func disconnect() {
        loop.assertInLoop()
        closeNow()
    }

    // MARK: FrameConnection

    var hasRoomForOutput: Bool {
        loop.assertInLoop()
        return isTakingOutput && !isClosed && !isClosing
    }

    func send(_ frame: ServerFrame) {
        send { WireCodec.append(frame, to: &$0) }
    }

    func send(encodedBy encode: (inout [UInt8]) -> Void) {
        loop.assertInLoop()
        guard !isClosed, !isClosing else { return }
        var bytes: [UInt8] = []
        encode(&bytes)
        output.append(contentsOf: bytes)
    }

    func whenRoomForOutput(_ producer: @escaping () -> Void) {
        loop.assertInLoop()
        guard !isClosed, !isClosing else { return }
        producersParked += 1
        parkedProducers.append(producer)
        // With room already, a `PipeConnection` runs it at the end of the turn.
        if isTakingOutput { loop.schedule(afterMicros: 0) { [weak self] in self?.runParkedProducers() } }
    }

    func hold(_ bytes: Int) {
        loop.assertInLoop()
        heldBytes += bytes
        peakHeldBytes = max(peakHeldBytes, heldBytes)
    }

    func release(_ bytes: Int) {
        loop.assertInLoop()
        heldBytes -= bytes
    }

    func close(with error: BrokerError) {
        loop.assertInLoop()
        guard !isClosed, !isClosing else { return }
        closingError = error
        closeAfterSending(ServerFrame(callID: 0, status: Status(error)))
    }

    func closeAfterSending(_ frame: ServerFrame, graceMicros: Int64) {
        loop.assertInLoop()
        guard !isClosed, !isClosing else { return }
        send(frame)
        isClosing = true
        parkedProducers = []
        // The output is the test's at once; the close follows on the next turn, as it follows the
        // write for a `PipeConnection`, never inside the broker's own call.
        loop.schedule(afterMicros: 0) { [weak self] in self?.closeNow() }
    }

    func closeNow(with error: BrokerError) {
        loop.assertInLoop()
        guard !isClosed else { return }
        if !isClosing { send(ServerFrame(callID: 0, status: Status(error))) }
        closingError = closingError ?? error
        closeNow()
    }

    private func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        parkedProducers = []
        reportClose(self, closingError)
    }

    /// Runs parked producers in order while the peer takes output; each may park again (at the back).
    private func runParkedProducers() {
        while isTakingOutput, !isClosed, !isClosing, !parkedProducers.isEmpty {
            let producer = parkedProducers.removeFirst()
            producer()
        }
    }
}
