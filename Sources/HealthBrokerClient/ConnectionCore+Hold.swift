#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import Synchronization

/// A solo unary call's caller waits for its reply in `poll(2)` on its own thread (a "hold").
///
/// Why: a reply read by the loop's thread costs two thread wake-ups (the loop's, then the
/// cooperative-pool thread's that runs the resumed task); the C echo, one. When a call is the only
/// one in flight, its caller takes the connection's `ReaderToken`, waits in `poll` on the socket for
/// a short, adaptive time (`HoldBudget`: at most 50 µs), reads the reply itself and goes on without
/// suspending, so the kernel wakes exactly the thread that wants the reply.
///
/// Why a hold may block a cooperative thread: it is bounded (≤ 50 µs plus the kernel's timer slack
/// when it times out), sleeps in the kernel rather than spinning (the CPU stays free for the broker
/// and the loop), and happens only when nothing else is in flight on the connection and no task the
/// connection resumed is still queued to run (`resumedTasks`: with many tasks calling at once, the
/// others are queued behind this one and would start calls of their own; holding then would keep
/// this thread from them, and every call would look solo, as on the spinning branch `p50`). A hold
/// is as long as a few system calls, not a wait.
///
/// Why not `Task.yield()` first, to let queued tasks start their calls: measured, the yield (a trip
/// through the global executor's queue, which also wakes another pool thread) cost 5–8 µs per call,
/// most of what the hold saves (benchmarks/PROFILE.md, "A solo call's caller reads its own reply").
///
/// While holding, the caller is the connection's reader: it reads and routes every frame as the
/// loop would (other calls' replies, stream items, a connection-level error, EOF), and hands the
/// token back when its call is finished (its reply, a cancellation, a deadline or the connection's
/// end, all seen through the call table) or its budget is spent. The loop meanwhile polls the socket
/// without `POLLIN` and keeps expiring deadlines and writing the outbox.
extension ConnectionCore {
    /// Holds for call `id`'s reply if the call is still the only one in flight, no task this
    /// connection resumed is waiting to run, and nobody reads the socket now; returns its result, or
    /// nil when the caller must suspend as usual.
    func holdForReply(_ id: UInt64) -> CallEvent? {
        // The loop reads while a call is in flight or when the connection has just been used by one
        // that was not solo; a hold needs the token idle, and a learnt budget.
        guard holdBudget.enabled.load(ordering: .relaxed), readerToken.current == .idle, UnixSocket.hasFinePoll else { return nil }
        let budget = holdBudget.nanos
        guard budget > 0 else { return nil }
        // Tasks this connection resumed that have not run yet will likely start calls of their own
        // (many tasks calling at once): this call is not really solo, and holding would keep this
        // thread from them.
        guard resumedTasks.load(ordering: .relaxed) <= 0 else { return nil }
        let taken: CallEvent?? = table.withLock { table in
            if let finished = table.takeFinished(id) { return .some(finished) }
            guard table.count == 1, readerToken.tryHold() else { return .none }
            return .some(nil)
        }
        switch taken {
        case .none: return nil
        case .some(let finished?): return finished
        case .some(nil): return hold(id, budgetNanos: budget)
        }
    }

    /// Reads the socket while holding its token until call `id` is finished (returning its result) or
    /// `budgetNanos` pass (returning nil); gives the token back either way.
    private func hold(_ id: UInt64, budgetNanos: Int64) -> CallEvent? {
        if holdHookSet.load(ordering: .acquiring), let hook = holdHook.withLock({ $0 }) { hook(id) }
        let until = HoldBudget.now() + budgetNanos
        var one = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
        var polled = false
        while true {
            // Finished by this thread's read, or meanwhile by a cancellation, a deadline or the end
            // of the connection (each leaves the outcome in the table for the caller to take).
            let (finished, wake) = table.withLock { table -> (CallEvent?, Bool) in
                guard let finished = table.takeFinished(id) else { return (nil, false) }
                return (finished, releaseHold(inFlight: table.count, closed: table.closedError != nil))
            }
            if let finished {
                if wake { wakeLoop() }
                return finished
            }
            let left = until - HoldBudget.now()
            // At least one look at the socket, however late this thread ran.
            if polled && left <= 0 { break }
            polled = true
            one.revents = 0
            let ready = UnixSocket.pollOne(&one, nanoseconds: max(left, 0))
            if ready > 0 {
                // False: the connection ended (EOF, an error, a bad frame); the table says how.
                _ = readReady(onLoop: false)
            } else if ready < 0 && errno != EINTR {
                break
            }
        }
        let wake = table.withLock { releaseHold(inFlight: $0.count, closed: $0.closedError != nil) }
        if wake { wakeLoop() }
        return nil
    }

    /// Gives the token up (under the table's lock): to the loop while any call is in flight or the
    /// connection ended (true: wake it; it polls without `POLLIN` until then), else to nobody.
    private func releaseHold(inFlight: Int, closed: Bool) -> Bool {
        let toLoop = inFlight > 0 || closed
        readerToken.release(toLoop: toLoop)
        return toLoop
    }
}
