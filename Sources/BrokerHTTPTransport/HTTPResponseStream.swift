import BrokerTransport
import CH2O

/// The body of a streamed response (server-sent events): pieces are queued and handed to h2o one
/// at a time, as h2o asks for more (its generator's `proceed`).
///
/// h2o reads the buffer of an `h2o_send` until it calls `proceed`, so the piece in flight is kept in
/// memory owned here until then. `onClose` runs once, when the peer goes away or the request ends.
/// Loop thread only.
public final class HTTPResponseStream {
    private let loop: EventLoop
    private var request: UnsafeMutablePointer<h2o_req_t>?
    private var queued: [UInt8] = []
    private var inFlight: UnsafeMutableRawBufferPointer?
    private var isSending = false
    private var isFinishing = false
    private var closeHandler: (() -> Void)?

    init(loop: EventLoop, request: UnsafeMutablePointer<h2o_req_t>) {
        self.loop = loop
        self.request = request
    }

    deinit {
        inFlight?.deallocate()
    }

    /// Starts the response: h2o sends the headers and then calls `proceed` for the first piece.
    func start() {
        guard let request else { return }
        // The generator refers to this stream unretained: the request (which retains it through
        // HTTPRequest) outlives every generator callback.
        let generator = ch2o_create_generator(
            request, Unmanaged.passUnretained(self).toOpaque(),
            { generator, _ in
                Unmanaged<HTTPResponseStream>.fromOpaque(ch2o_generator_owner(generator)!).takeUnretainedValue().proceed()
            },
            { generator, _ in
                Unmanaged<HTTPResponseStream>.fromOpaque(ch2o_generator_owner(generator)!).takeUnretainedValue().stopped()
            })
        h2o_start_response(request, generator)
        isSending = true
        h2o_send(request, nil, 0, H2O_SEND_STATE_IN_PROGRESS)
    }

    /// Whether the stream can still carry data.
    public var isOpen: Bool { request != nil && !isFinishing }

    /// Runs `handler` once when the stream ends (peer gone or request finished); at once if it has.
    public func onClose(_ handler: @escaping () -> Void) {
        loop.assertInLoop()
        if request == nil { handler() } else { closeHandler = handler }
    }

    /// Queues `bytes` for sending; a no-op once the stream is closed.
    public func send(_ bytes: [UInt8]) {
        loop.assertInLoop()
        guard isOpen else { return }
        queued += bytes
        if !isSending { sendQueued() }
    }

    /// Ends the response once what is queued has gone out.
    public func finish() {
        loop.assertInLoop()
        guard isOpen else { return }
        isFinishing = true
        if !isSending { sendQueued() }
    }

    private func sendQueued() {
        guard let request else { return }
        inFlight?.deallocate()
        inFlight = nil
        if queued.isEmpty {
            if isFinishing {
                isSending = true
                h2o_send(request, nil, 0, H2O_SEND_STATE_FINAL)
            }
            return
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: queued.count, alignment: 1)
        buffer.copyBytes(from: queued)
        queued.removeAll(keepingCapacity: true)
        inFlight = buffer
        isSending = true
        var piece = ch2o_iovec(buffer.baseAddress, buffer.count)
        h2o_send(request, &piece, 1, isFinishing ? H2O_SEND_STATE_FINAL : H2O_SEND_STATE_IN_PROGRESS)
    }

    /// h2o wrote the last piece out and asks for more.
    private func proceed() {
        loop.assertInLoop()
        isSending = false
        sendQueued()
    }

    /// The peer went away mid-stream.
    private func stopped() {
        loop.assertInLoop()
        ended()
    }

    /// The request is being freed (HTTPRequest's dispose): the stream is over.
    func requestFreed() {
        ended()
    }

    private func ended() {
        request = nil
        queued = []
        let handler = closeHandler
        closeHandler = nil
        handler?()
    }
}
