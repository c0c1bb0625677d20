#if canImport(Glibc)
import Glibc
#endif
import Foundation
import BrokerCore
import BrokerWire

/// One connection's shared machinery: the socket, the call table, the writer and the reader thread.
///
/// Threads: the reader thread (`runReader`) is the only one that reads the socket, expires
/// deadlines, and resumes most waiters; it never writes, so a broker that stops reading cannot wedge
/// it. Callers' threads register calls and write frames (`FrameWriter`, one at a time).
///
/// Locks: `table` (an NSLock) guards all call state; `FrameWriter` and `closeHook` have their own.
/// They are never nested, and no waiter is resumed (nor the close hook run) while one is held.
///
/// Lifetime: the reader thread holds the core until it exits; `BrokerConnection` holds it and closes
/// it when released. The descriptors stay open until `deinit`, when nothing can use them any more,
/// so closing the connection (`shutdown(2)`) never races a descriptor being reused.
final class ConnectionCore: Sendable {
    /// How long past a call's deadline the client waits for the broker's own DEADLINE_EXCEEDED.
    static let deadlineGraceMicros: Int64 = 250_000
    /// The largest frame the client accepts from the broker.
    static let maxIncomingFrameBytes = 16 * 1024 * 1024
    /// The reader's read size.
    static let readChunkBytes = 64 * 1024

    /// The path the socket was connected to, for error messages.
    let socketPath: String
    /// The connected socket.
    let socketFD: Int32
    /// The read end of a non-blocking pipe that wakes the reader when an earlier deadline is armed.
    let wakeReadFD: Int32
    /// Its write end.
    let wakeWriteFD: Int32
    /// Every call in flight.
    let table = Locked(CallTable<CallWaiter>())
    /// Serialised frame output.
    let writer: FrameWriter
    /// Who to tell, once, that the connection ended (see `onClose`).
    let closeHook = Locked(CloseHook.unset)

    /// Takes ownership of the connected `socketFD` and of the wake pipe.
    init(socketPath: String, socketFD: Int32, wakePipe: (read: Int32, write: Int32)) {
        self.socketPath = socketPath
        self.socketFD = socketFD
        self.wakeReadFD = wakePipe.read
        self.wakeWriteFD = wakePipe.write
        self.writer = FrameWriter(fd: socketFD)
    }

    deinit {
        _ = Glibc.close(socketFD)
        _ = Glibc.close(wakeReadFD)
        _ = Glibc.close(wakeWriteFD)
    }

    /// Connects to `socketPath` and starts the reader thread.
    static func connect(socketPath: String) throws(BrokerError) -> ConnectionCore {
        let fd = try UnixSocket.connect(path: socketPath)
        return try adopt(socketFD: fd, label: socketPath)
    }

    /// Wraps an already connected stream socket (owned from now on) and starts the reader thread.
    static func adopt(socketFD fd: Int32, label: String) throws(BrokerError) -> ConnectionCore {
        let wake: (read: Int32, write: Int32)
        do {
            wake = try UnixSocket.makeWakePipe()
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        let core = ConnectionCore(socketPath: label, socketFD: fd, wakePipe: wake)
        let thread = Thread { [core] in core.runReader() }
        thread.name = "HealthBrokerClient reader"
        thread.start()
        return core
    }

    /// The error later calls fail with, once closed.
    var closedError: BrokerError? { table.withLock { $0.closedError } }

    /// Calls registered and not finished.
    var pendingCallCount: Int { table.withLock { $0.count } }

    /// Makes the reader re-read `wakeAt`.
    func wakeReader() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)  // EAGAIN: the pipe is full, so a wake-up is pending anyway
    }

    /// Closes the connection from the client side: pending calls fail with UNAVAILABLE.
    func close(reason: String) {
        let error = BrokerError.connectionClosed(socketPath, reason)
        shutDown(failingPendingWith: error, laterCallsWith: error)
    }

    /// Closes the table (delivering the failures) and shuts the socket down, which stops the reader.
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
        guard let code = writer.write(frame) else { return }
        throw writeFailed(code, discarding: id)
    }

    /// Writes raw bytes, failing the same way as `send`.
    func sendRaw(_ bytes: [UInt8]) throws(BrokerError) {
        if let closedError { throw closedError }
        guard let code = writer.writeRaw(bytes) else { return }
        throw writeFailed(code, discarding: nil)
    }

    private func writeFailed(_ code: Int32, discarding id: UInt64?) -> BrokerError {
        let reason = code == EPIPE || code == ECONNRESET
            ? "the broker closed the connection" : "write failed: \(UnixSocket.errorName(code))"
        let fresh = BrokerError.connectionClosed(socketPath, reason)
        // A broker that hangs up usually says why first (a status on call id 0): give the reader a
        // moment to read it, so the caller learns the reason rather than only "closed".
        if code == EPIPE || code == ECONNRESET {
            for _ in 0..<100 where table.withLock({ $0.closedError }) == nil { usleep(2_000) }
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
