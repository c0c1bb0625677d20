#if canImport(Glibc)
import Glibc
#endif
import Foundation
import BrokerModel
import BrokerWire

/// One socket connection's shared machinery: the socket, the call table, the writer, and the loop
/// that reads it.
///
/// Threads: the loop's thread (`ClientLoop`) is the only one that reads the socket, expires
/// deadlines, and resumes most waiters. Callers' threads register calls and write frames
/// (`FrameWriter`, one at a time). Code running on the loop's thread (tasks that prefer the loop as
/// their executor) writes too: it never blocks in a write, but reads while the socket is full, so a
/// broker that waits for its replies to be read cannot wedge the loop.
///
/// Locks: `table` (an NSLock) guards all call state; `FrameWriter` and `closeHook` have their own.
/// They are never nested, and no waiter is resumed (nor the close hook run) while one is held.
///
/// Lifetime: the loop holds the core until the connection ends; `BrokerConnection` holds it and
/// closes it when released. The descriptor stays open until `deinit`, when nothing can use it any
/// more, so closing the connection (`shutdown(2)`) never races a descriptor being reused.
final class ConnectionCore: Sendable {
    /// How long past a call's deadline the client waits for the broker's own DEADLINE_EXCEEDED.
    static let deadlineGraceMicros: Int64 = 250_000
    /// The largest frame the client accepts from the broker.
    static let maxIncomingFrameBytes = 16 * 1024 * 1024
    /// The size of each read of the socket.
    static let readChunkBytes = 64 * 1024

    /// The path the socket was connected to, for error messages.
    let socketPath: String
    /// The connected socket.
    let socketFD: Int32
    /// The loop that reads the socket (shared with the connection's reconnections).
    let loop: ClientLoop
    /// The read side's buffers, used on the loop's thread only.
    let reader = ReaderState()
    /// Every call in flight.
    let table = Locked(CallTable<CallWaiter>())
    /// Serialised frame output.
    let writer: FrameWriter
    /// Who to tell, once, that the connection ended (see `onClose`).
    let closeHook = Locked(CloseHook.unset)

    /// Takes ownership of the connected `socketFD`.
    init(socketPath: String, socketFD: Int32, loop: ClientLoop) {
        self.socketPath = socketPath
        self.socketFD = socketFD
        self.loop = loop
        self.writer = FrameWriter(fd: socketFD)
    }

    deinit {
        _ = Glibc.close(socketFD)
    }

    /// Connects to `socketPath` and starts reading it on `loop` (nil: a new loop of its own).
    static func connect(socketPath: String, loop: ClientLoop? = nil) throws(BrokerError) -> ConnectionCore {
        let fd = try UnixSocket.connect(path: socketPath)
        return try adopt(socketFD: fd, label: socketPath, loop: loop)
    }

    /// Wraps an already connected stream socket (owned from now on) and starts reading it on `loop`
    /// (nil: a new loop of its own).
    static func adopt(socketFD fd: Int32, label: String, loop: ClientLoop? = nil) throws(BrokerError) -> ConnectionCore {
        let reading: ClientLoop
        do throws(BrokerError) {
            if let loop { reading = loop } else { reading = try ClientLoop() }
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        let core = ConnectionCore(socketPath: label, socketFD: fd, loop: reading)
        reading.thread.attach(core)
        return core
    }

    /// The error later calls fail with, once closed.
    var closedError: BrokerError? { table.withLock { $0.closedError } }

    /// Calls registered and not finished.
    var pendingCallCount: Int { table.withLock { $0.count } }

    /// Makes the loop re-read `wakeAt`.
    func wakeLoop() {
        loop.thread.wake()
    }

    /// Closes the connection from the client side: pending calls fail with UNAVAILABLE.
    func close(reason: String) {
        let error = BrokerError.connectionClosed(socketPath, reason)
        shutDown(failingPendingWith: error, laterCallsWith: error)
    }

    /// Closes the table (delivering the failures) and shuts the socket down, which ends the loop's reading of it.
    func shutDown(failingPendingWith pendingError: BrokerError, laterCallsWith laterError: BrokerError) {
        var deliveries: [CallTable<CallWaiter>.Delivery] = []
        let closedNow = table.withLock {
            $0.close(failingPendingWith: pendingError, laterCallsWith: laterError, into: &deliveries)
        }
        for delivery in deliveries { delivery.waiter.deliver(delivery.event) }
        guard closedNow else { return }
        _ = Glibc.shutdown(socketFD, Int32(SHUT_RDWR))
        announceClosed(laterError)
    }

    /// Writes `frame`. On failure the connection is shut down (after forgetting call `discarding`,
    /// whose caller gets the error thrown instead) and the error is thrown.
    func send(_ frame: ClientFrame, discarding id: UInt64? = nil) throws(BrokerError) {
        let onLoop = loop.isCurrent
        guard let code = writer.write(frame, nonBlocking: onLoop, whileLocked: waitForWriter, whileFull: waitWritable) else { return }
        throw writeFailed(code, discarding: id)
    }

    /// Writes raw bytes, failing the same way as `send`.
    func sendRaw(_ bytes: [UInt8]) throws(BrokerError) {
        if let closedError { throw closedError }
        let onLoop = loop.isCurrent
        guard let code = writer.writeRaw(bytes, nonBlocking: onLoop, whileLocked: waitForWriter, whileFull: waitWritable) else { return }
        throw writeFailed(code, discarding: nil)
    }

    /// What a write on the loop's thread does while another thread writes: reads what the broker
    /// sent (waiting up to 1 ms for it), since that writer may be waiting for the broker, which may be
    /// waiting for its replies to be read.
    private func waitForWriter() {
        pumpReads(milliseconds: 1)
    }

    /// What a write on the loop's thread does while the socket is full: waits until it is writable,
    /// reading the broker's frames meanwhile (the loop cannot read them while the write waits).
    private func waitWritable() {
        pumpReads(milliseconds: -1, orWritable: true)
    }

    private func writeFailed(_ code: Int32, discarding id: UInt64?) -> BrokerError {
        let reason = code == EPIPE || code == ECONNRESET
            ? "the broker closed the connection" : "write failed: \(UnixSocket.errorName(code))"
        let fresh = BrokerError.connectionClosed(socketPath, reason)
        // A broker that hangs up usually says why first (a status on call id 0): give the loop a
        // moment to read it, so the caller learns the reason rather than only "closed".
        if code == EPIPE || code == ECONNRESET {
            let onLoop = loop.isCurrent  // the loop cannot read while this waits: read here instead
            for _ in 0..<100 where table.withLock({ $0.closedError }) == nil {
                if onLoop { pumpReads(milliseconds: 2) } else { usleep(2_000) }
            }
        }
        let error = table.withLock { table in
            if let id { table.discard(id) }
            return table.closedError ?? fresh
        }
        shutDown(failingPendingWith: error, laterCallsWith: error)
        return error
    }

    /// The wire timeout and the client's fallback deadline (monotonic µs) for a call's `timeout`.
    static func deadline(for timeout: Duration?, now: Int64) throws(BrokerError) -> (wireMicros: Int64, deadline: Int64?) {
        guard let timeout else { return (0, nil) }
        let micros = timeout.wholeMicrosecondsRoundedUp
        guard micros > 0 else { throw .timeoutAlreadyPassed }
        let (withGrace, overflow1) = micros.addingReportingOverflow(deadlineGraceMicros)
        let (deadline, overflow2) = now.addingReportingOverflow(withGrace)
        return (micros, overflow1 || overflow2 ? .max : deadline)
    }
}
