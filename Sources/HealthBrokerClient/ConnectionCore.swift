#if canImport(Glibc)
import Glibc
#endif
import Foundation
import BrokerModel
import Synchronization
import BrokerWire

/// One socket connection's shared machinery: the socket, the call table, the outbox, and the loop
/// that reads it.
///
/// Threads: the loop's thread (`ClientLoop`) expires deadlines, and reads the socket and resumes
/// most waiters, except while the caller of a solo unary call reads it for its own reply (a hold:
/// `CallTable+Reader`, `ConnectionCore+Hold`). Callers' threads register calls and hand their frames to
/// the `outbox`: a frame is written at once (non-blocking) only when nothing is queued and the
/// socket takes it whole; the rest is written by the loop when the socket is writable. The socket
/// is non-blocking, so no thread ever waits in `send(2)`, and the loop reads however full the
/// socket is: a broker that waits for its replies to be read cannot wedge anyone.
///
/// Locks: `table` (an NSLock) guards all call state; `outbox` and `closeHook` have their own.
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
    /// Every call in flight, and who reads the socket (`CallTable+Reader`).
    let table: Locked<CallTable<CallWaiter>>
    /// Frames waiting for the socket, and callers waiting for room (see `ConnectionCore+Sending`).
    /// Change it only through `withOutbox`, which keeps `outboxNeedsLoop` current.
    let outbox = Locked(Outbox<RoomWaiter>())
    /// `outbox.needsLoop` as of its last change, so the loop's every pass need not take the
    /// outbox's lock (which the next call's caller wants at that very moment).
    let outboxNeedsLoop = Atomic<Bool>(false)
    /// Who to tell, once, that the connection ended (see `onClose`).
    let closeHook = Locked(CloseHook.unset)
    /// Who reads the socket now, readable without the lock (the table's `reader`, published).
    let readerToken: ReaderToken
    /// How long a solo call's caller may wait in `poll(2)` for its reply (see `ConnectionCore+Hold`).
    let holdBudget = HoldBudget()
    /// Tests only: runs on the holder's thread once a hold has taken the token, before it polls.
    let holdHook = Locked<(@Sendable (UInt64) -> Void)?>(nil)
    /// Whether `holdHook` is set (so a hold takes no lock for it otherwise).
    let holdHookSet = Atomic<Bool>(false)
    /// Tasks this connection resumed (their call's event delivered) that have not run on since: the
    /// sign that a call is not really solo (those tasks are queued to run and will likely start calls
    /// of their own), without a yield to find out. See `ConnectionCore+Hold`.
    let resumedTasks = Atomic<Int>(0)

    /// Takes ownership of the connected `socketFD`.
    init(socketPath: String, socketFD: Int32, loop: ClientLoop) {
        self.socketPath = socketPath
        self.socketFD = socketFD
        self.loop = loop
        let token = ReaderToken()
        readerToken = token
        table = Locked(CallTable(readerToken: token))
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
        // Non-blocking, so no read or write on it can ever hold a thread (writes wait in the outbox).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
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

    /// Hands `delivery` to its waiter (outside every lock), counting the tasks it resumes.
    @inline(__always)
    func resume(_ delivery: CallTable<CallWaiter>.Delivery) {
        if case .task = delivery.waiter { resumedTasks.add(1, ordering: .relaxed) }
        delivery.waiter.deliver(delivery.event)
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
        for delivery in deliveries { resume(delivery) }
        guard closedNow else { return }
        closeOutbox()
        _ = Glibc.shutdown(socketFD, Int32(SHUT_RDWR))
        announceClosed(laterError)
    }

    /// Ends the connection after a write failed with `code` (loop thread). A broker that hangs up
    /// usually says why first (a status on call id 0): its frames are read for up to 200 ms, so
    /// callers learn the reason rather than only "closed".
    func writeFailed(_ code: Int32) {
        let fresh = BrokerError.connectionClosed(socketPath, Self.writeFailureReason(code))
        if code == EPIPE || code == ECONNRESET {
            for _ in 0..<100 where table.withLock({ $0.closedError }) == nil {
                pumpReads(milliseconds: 2)
            }
        }
        let error = table.withLock { $0.closedError ?? fresh }
        shutDown(failingPendingWith: error, laterCallsWith: error)
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
