#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import Synchronization

/// A solo unary call's caller waits for its reply in `poll(2)` on its own thread (a "hold").
///
/// Why: a reply read by the loop's thread costs two thread wake-ups (the loop's, then the
/// cooperative-pool thread's that runs the resumed task); the C echo, one. When a call is the only
/// one in flight and the broker answers it at once (`Proto.Call.Request.repliesAtOnce`: Ping,
/// AuthorizationStatus, RequestStatus, EASD), its caller becomes the socket's reader, waits in
/// `poll` on the socket, reads the reply itself and goes on without suspending, so the kernel
/// wakes exactly the thread that wants the reply.
///
/// Why a hold may block a cooperative thread: it happens only for such a call, only while its
/// replies have been quick (`HoldBudget`: a typical wait ≤ 40 µs), when nothing else is in flight
/// on the connection and no task the connection resumed is still queued to run (`resumedTasks`:
/// with many tasks calling at once, the others are queued behind this one and would start calls of
/// their own; holding then would keep this thread from them, and every call would look solo, as on
/// the spinning branch `p50`). It sleeps in the kernel rather than spinning. Its wait is bounded at
/// `HoldBudget.waitBoundNanos` (10 ms), not at a multiple of the typical wait: a timeout of tens
/// of microseconds made every wake-up 4–10 µs slower on this project's VMs, more than the hold
/// saves (PROFILE.md, "The hold's near timer"), and a call the broker answers at once waits that
/// long only when the broker is stalled. A cancellation or a deadline during a hold takes effect when the hold ends.
///
/// Why not `Task.yield()` first, to let queued tasks start their calls: measured, the yield (a trip
/// through the global executor's queue, which also wakes another pool thread) cost 5–8 µs per call,
/// most of what the hold saves (benchmarks/PROFILE.md, "A solo call's caller reads its own reply").
///
/// While holding, the caller is the connection's reader: it reads and routes every frame as the
/// loop would (other calls' replies, stream items, a connection-level error, EOF), and ends its hold
/// when its call is finished (its reply, a cancellation, a deadline or the connection's end, all
/// seen through the call table) or its wait bound passes. The loop meanwhile does not poll the socket
/// for `POLLIN` and keeps expiring deadlines and writing the outbox.
///
/// Who reads is the call table's `reader` (`CallTable+Reader`, which states the rule that keeps every
/// waiter served). A caller holds only from the registration of its call, made while nobody read
/// (so nothing else was in flight), and it never suspends while it holds: it ends the hold before
/// its frame parks, when its send fails, and here, on every way out.
extension ConnectionCore {
    /// Whether a unary call registered now may make its caller the reader: holds are on, this is not
    /// the loop's thread, and no task this connection resumed is waiting to run (with many tasks
    /// calling at once, the others are queued behind this one and will start calls of their own;
    /// holding would keep this thread from them). Such a call, alone when registered, is solo: its
    /// wait teaches the budget (`HoldBudget`), which must also be > 0 for it to hold.
    func mayHoldNow() -> Bool {
        holdBudget.enabled.load(ordering: .relaxed) && !loop.isCurrent
            && resumedTasks.load(ordering: .relaxed) <= 0
    }

    /// Ends call `id`'s caller's hold, if it still holds (waking the loop when it takes over).
    func endHold(_ id: UInt64) {
        if table.withLock({ $0.endHold(id) }) { wakeLoop() }
    }

    /// Reads the socket while call `id`'s caller holds it, until the call is finished (returning its
    /// result) or its wait bound passes (returning nil); the hold is over either way. Does not wait
    /// (only ends the hold) without a budget, or when other calls were registered meanwhile or a
    /// resumed task waits.
    func hold(_ id: UInt64) -> CallEvent? {
        let budgetNanos = holdBudget.nanos
        let alone = table.withLock { $0.isHeld(by: id) && $0.count == 1 }
        if alone && budgetNanos > 0 && resumedTasks.load(ordering: .relaxed) <= 0 {
            readerToken.holds.add(1, ordering: .relaxed)
            if holdHookSet.load(ordering: .acquiring), let hook = holdHook.withLock({ $0 }) { hook(id) }
            let until = HoldBudget.now() + budgetNanos
            var one = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            var polled = false
            while true {
                // Finished by this thread's read, or meanwhile by a cancellation, a deadline or the
                // end of the connection (each leaves the outcome in the table for the caller to take).
                if let finished = table.withLock({ $0.takeFinished(id) }) {
                    if finished.wakeLoop { wakeLoop() }
                    return finished.event
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
                    // It resumed other calls' tasks: many are calling, and they wait for a pool
                    // thread this one keeps from them; the loop reads on (after a last look for its
                    // own reply, below).
                    if resumedTasks.load(ordering: .relaxed) > 0 { break }
                } else if ready < 0 && errno != EINTR {
                    break
                }
            }
        }
        // The hold is over: the outcome if it came meanwhile, else the loop (or nobody) reads on.
        let (finished, wake) = table.withLock { table -> (CallEvent?, Bool) in
            if let finished = table.takeFinished(id) { return (finished.event, finished.wakeLoop) }
            return (nil, table.endHold(id))
        }
        if wake { wakeLoop() }
        return finished
    }
}
