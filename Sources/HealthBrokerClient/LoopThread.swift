#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import BrokerModel
import BrokerSupport

/// The client loop's thread: `poll(2)` over a wake pipe and the attached sockets, reads (whenever
/// it is a socket's reader, `CallTable+Reader`), the writes callers queued (`Outbox`: polled for `POLLOUT` while it has a backlog), deadlines, and the
/// executor's jobs.
///
/// Confinement: `cores`, `pollSet` and `running` are touched only by the loop's own thread (`run`);
/// everything other threads reach (queued jobs, connections to attach, the wake flags) is in
/// `shared`, under its lock. That is what makes the `@unchecked Sendable` sound.
///
/// Waking: other threads write the pipe only while the loop sleeps in `poll` and no wake-up is
/// pending yet, so a burst of jobs or deadline changes costs one write; work queued from the loop's
/// own thread never writes it (the loop looks at its queue before it sleeps).
final class LoopThread: @unchecked Sendable {
    /// What other threads hand the loop.
    struct Shared {
        /// Jobs to run, in order.
        var jobs: [UnownedJob] = []
        /// Keeps the executor alive while `jobs` is not empty.
        var holder: ClientLoop?
        /// Connections to start reading.
        var arriving: [ConnectionCore] = []
        /// The loop is in (or about to enter) `poll` and must be woken for new work.
        var sleeping = false
        /// A byte is in the pipe already.
        var wakePending = false
        /// `wake()` was called since the loop last read its connections' deadlines: read them again
        /// before sleeping. Without it a deadline set between that read and `sleeping` (when no byte
        /// is written, since the loop is not asleep yet) waited for the next socket event.
        var deadlinesChanged = false
        /// The executor was released: exit once every connection has ended and no job is left.
        var released = false
        /// The thread has returned.
        var exited = false
    }

    /// State shared with other threads.
    let shared = Locked(Shared())
    /// The loop's thread once it runs (0 before): read on every call's write, so an atomic rather
    /// than a lock. Relaxed suffices: only the loop's thread stores it, before it runs anything, and
    /// no other thread can find its own id there.
    private let threadID = Atomic<UInt>(0)
    private let wakeReadFD: Int32
    private let wakeWriteFD: Int32

    // Loop-thread state (see Confinement), so no run-time exclusivity checks on each pass.
    @exclusivity(unchecked) private var cores: [ConnectionCore] = []
    @exclusivity(unchecked) private var pollSet: [pollfd] = []
    @exclusivity(unchecked) private var running: [UnownedJob] = []

    /// Creates the wake pipe; `start` runs the thread.
    init() throws(BrokerError) {
        (wakeReadFD, wakeWriteFD) = try UnixSocket.makeWakePipe()
    }

    deinit {
        _ = Glibc.close(wakeReadFD)
        _ = Glibc.close(wakeWriteFD)
    }

    /// Starts the thread (it holds this object until it exits).
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "HealthBrokerClient loop"
        thread.start()
    }

    /// True once the thread has returned (after the loop was released and its work ran out).
    var hasExited: Bool { shared.withLock { $0.exited } }

    /// True on the loop's own thread.
    var isCurrent: Bool {
        threadID.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Queues `job`; `holder` (the executor) stays alive until it has run.
    func enqueue(_ job: UnownedJob, holder: ClientLoop) {
        let wake = shared.withLock { shared in
            shared.jobs.append(job)
            if shared.holder == nil { shared.holder = holder }
            return Self.claimWake(&shared)
        }
        if wake { writeWake() }
    }

    /// Starts reading `core`'s socket.
    func attach(_ core: ConnectionCore) {
        let wake = shared.withLock { shared in
            shared.arriving.append(core)
            return Self.claimWake(&shared)
        }
        if wake { writeWake() }
    }

    /// Makes the loop look at its connections' deadlines again.
    func wake() {
        let write = shared.withLock { shared in
            shared.deadlinesChanged = true
            return Self.claimWake(&shared)
        }
        if write { writeWake() }
    }

    /// The executor is gone: the thread exits once nothing is left to do.
    func release() {
        let wake = shared.withLock { shared in
            shared.released = true
            return Self.claimWake(&shared)
        }
        if wake { writeWake() }
    }

    /// Whether the caller must write the pipe (the loop sleeps and no byte is pending).
    private static func claimWake(_ shared: inout Shared) -> Bool {
        guard shared.sleeping, !shared.wakePending else { return false }
        shared.wakePending = true
        return true
    }

    private func writeWake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)  // EAGAIN: the pipe is full, so a wake-up is pending anyway
    }

    /// The thread's body.
    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .relaxed)
        while true {
            runJobs()
            let now = Microseconds.monotonic()
            var timeout: Int32 = -1
            cores.removeAll { core in
                guard let wait = core.expireDeadlines(now: now) else { return true }
                core.checkOutbox(now: now)
                if wait >= 0, timeout < 0 || wait < timeout { timeout = wait }
                return false
            }
            let proceed: Bool? = shared.withLock { shared in
                // More work, or a deadline set after they were read: no sleep.
                if !shared.jobs.isEmpty || !shared.arriving.isEmpty || shared.deadlinesChanged { return true }
                if shared.released && cores.isEmpty {
                    shared.exited = true
                    return nil
                }
                shared.sleeping = true
                return false
            }
            guard let proceed else { return }
            if proceed { continue }
            waitAndRead(timeout: timeout)
        }
    }

    /// Runs every queued job (jobs they queue run on the next pass) and attaches arriving connections.
    private func runJobs() {
        let holder: ClientLoop? = shared.withLock { shared in
            // The deadlines are read after this, so every earlier wake() is seen by that read.
            shared.deadlinesChanged = false
            swap(&running, &shared.jobs)
            if !shared.arriving.isEmpty {
                cores.append(contentsOf: shared.arriving)
                shared.arriving.removeAll()
            }
            let holder = shared.holder
            shared.holder = nil
            return holder
        }
        guard let holder else { return }
        let executor = holder.asUnownedTaskExecutor()
        for job in running { job.runSynchronously(on: executor) }
        running.removeAll(keepingCapacity: true)
    }

    /// Sleeps in `poll` until a socket is readable (or, with a backlog, writable), the pipe is
    /// written or `timeout` ms pass, then reads every readable socket and writes every writable one
    /// (a connection that ends is dropped).
    private func waitAndRead(timeout: Int32) {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0))
        for core in cores {
            // POLLIN only while the loop is the socket's reader (`CallTable+Reader`): a reply then
            // wakes only the solo caller that holds it. With nobody reading (nothing in flight),
            // `poll` still reports a hang-up or an error, and the loop then reads (`loopMayRead`).
            // While a caller holds, the socket is left out unless the outbox needs it (the holder
            // sees a hang-up itself, and the loop is woken when the hold ends).
            let reader = core.readerToken.current
            let writes = core.wantsWritable
            let events = (reader == .loop ? Int16(POLLIN) : 0) | (writes ? Int16(POLLOUT) : 0)
            let watched = reader != .held || writes
            pollSet.append(pollfd(fd: watched ? core.socketFD : -1, events: events, revents: 0))
        }
        let ready = poll(&pollSet, nfds_t(pollSet.count), timeout)
        let code = errno
        let drain = shared.withLock { shared in
            shared.sleeping = false
            defer { shared.wakePending = false }
            return shared.wakePending
        }
        if drain || pollSet[0].revents != 0 {
            var bytes: (UInt64, UInt64) = (0, 0)
            _ = withUnsafeMutableBytes(of: &bytes) { read(wakeReadFD, $0.baseAddress, $0.count) }
        }
        guard ready > 0 else {
            if ready < 0 && code != EINTR {
                // Cannot wait any more (ENOMEM, say): end every connection rather than spin or hang.
                for core in cores { core.close(reason: "poll failed: \(UnixSocket.errorName(code))") }
            }
            return
        }
        var ended: [ObjectIdentifier] = []
        for (index, core) in cores.enumerated() where pollSet[index + 1].revents != 0 {
            let revents = pollSet[index + 1].revents
            // Read first: replies free the broker to read what the outbox writes next. A hang-up
            // while a solo caller holds the socket is the holder's to read (within its short hold).
            if revents & ~Int16(POLLOUT) != 0, core.loopMayRead(), !core.readReady(onLoop: true) {
                ended.append(ObjectIdentifier(core))
                continue
            }
            if revents & Int16(POLLOUT) != 0 { core.flushOutbox() }
        }
        if !ended.isEmpty { cores.removeAll { ended.contains(ObjectIdentifier($0)) } }
    }
}
