import BrokerModel
import Synchronization
import BrokerSupport
import BrokerWire

extension ConnectionCore {
    /// Registers a unary call and queues its frame (suspending while the outbox is full); returns its
    /// id, and whether its caller holds (reads the socket for the reply itself, see
    /// `ConnectionCore+Hold`: only when `mayHold`, nothing else is in flight and the call qualifies).
    /// The caller collects the result with `awaitUnary`, passing `holds` on.
    /// `solo`: the call may hold by its caller and was alone when registered, so its wait teaches
    /// the hold budget (`HoldBudget`), held or not.
    func startUnary(_ request: Proto.Call.Request, timeout: Duration?, mayHold: Bool = false) async throws(BrokerError) -> (id: UInt64, holds: Bool, solo: Bool) {
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        let eligible = mayHold && mayHoldNow()
        // No budget (none learnt yet, or replies too slow for a hold to catch): the caller does not
        // become the reader, which would only make it wake the loop when it gives up.
        let hold = eligible && holdBudget.nanos > 0
        let (result, alone) = table.withLock { table in
            let result = table.openUnary(deadline: deadline, waiter: nil, mayHold: hold)
            return (result, table.count == 1)
        }
        let opened = try result.get()
        if opened.wakeLoop { wakeLoop() }
        let solo = eligible && alone
        guard opened.holds else {
            try await send(.call(Self.call(opened.id, wireMicros, request: request)), callID: opened.id, deadline: deadline)
            return (opened.id, false, solo)
        }
        // The caller reads the socket from now on: it ends that before its task could suspend (its
        // frame must park) and when its send fails, so nobody waits for a reader that is not there.
        do throws(BrokerError) {
            try await send(.call(Self.call(opened.id, wireMicros, request: request)), callID: opened.id, deadline: deadline) {
                self.endHold(opened.id)
            }
        } catch {
            endHold(opened.id)
            throw error
        }
        return (opened.id, true, solo)
    }

    /// Registers a unary call whose result goes to `waiter`, and queues its frame without waiting
    /// (a task waits for room on its behalf if the outbox is full).
    func startUnary(_ request: Proto.Call.Request, timeout: Duration?, waiter: CallWaiter) throws(BrokerError) {
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        let result = table.withLock { $0.openUnary(deadline: deadline, waiter: waiter) }
        let opened = try result.get()
        if opened.wakeLoop { wakeLoop() }
        sendDetached(.call(Self.call(opened.id, wireMicros, request: request)), callID: opened.id, deadline: deadline)
    }

    /// Waits for unary call `id`'s result; task cancellation cancels the call (CANCELLED at once).
    ///
    /// A caller that `holds` first reads the socket for its reply on its own thread (`hold`), which
    /// ends the hold whatever happens (a `solo` call's wait is learnt either way); otherwise, or when that hold ends without the reply, the task
    /// suspends until the reader (the loop's thread, or another call's holder) resumes it.
    func awaitUnary(_ id: UInt64, holds: Bool = false, solo: Bool = false) async -> CallEvent {
        await withTaskCancellationHandler {
            let began = holds || solo ? HoldBudget.now() : 0
            if holds, let held = hold(id) {
                holdBudget.record(waitedNanos: HoldBudget.now() - began, takenInHold: true)
                return held
            }
            var resumedHere = false
            let event = await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                if let ready = table.withLock({ $0.attach(id, waiter: .task(continuation)) }) {
                    resumedHere = true
                    continuation.resume(returning: ready)
                }
            }
            // This task runs again: one resumed task fewer waiting to (`resume` counted it).
            if !resumedHere { resumedTasks.subtract(1, ordering: .relaxed) }
            if began != 0 { holdBudget.record(waitedNanos: HoldBudget.now() - began, takenInHold: false) }
            return event
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Registers a streaming call with `window` items of credit and queues its frame (suspending
    /// while the outbox is full); returns its id.
    func startStream(_ request: Proto.Call.Request, timeout: Duration?, window: UInt32) async throws(BrokerError) -> UInt64 {
        // The broker clamps a window past `Call.maxStreamCredit`; so does the client, or it would wait
        // for items the broker will not send before it grants again.
        let credit = min(window == 0 ? Call.defaultStreamCredit : window, Call.maxStreamCredit)
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        // Items may come at any time from now on: the loop reads for them (`openStream` sees to it).
        let result = table.withLock { $0.openStream(deadline: deadline, window: credit) }
        let opened = try result.get()
        if opened.wakeLoop { wakeLoop() }
        try await send(.call(Self.call(opened.id, wireMicros, credit: credit, request: request)), callID: opened.id, deadline: deadline)
        return opened.id
    }

    /// The stream's next event: a buffered item at once, else waits; task cancellation cancels the call.
    func nextStreamEvent(_ id: UInt64) async -> CallEvent {
        if Task.isCancelled {
            cancel(id)
            return .failure(.callCancelled)
        }
        if let ready = table.withLock({ $0.nextStreamEvent(id, waiter: nil) }) { return ready }
        return await withTaskCancellationHandler {
            var resumedHere = false
            let event = await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                if let ready = table.withLock({ $0.nextStreamEvent(id, waiter: .task(continuation)) }) {
                    resumedHere = true
                    continuation.resume(returning: ready)
                }
            }
            // This task runs again: one resumed task fewer waiting to (`resume` counted it).
            if !resumedHere { resumedTasks.subtract(1, ordering: .relaxed) }
            return event
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Grants stream `id` room for `items` more items (queued behind the stream's call frame, never
    /// waiting for room). A write failure closes the connection, which the stream then reports.
    func grant(_ id: UInt64, items: UInt32) {
        sendControl(.credit(.with { $0.callID = id; $0.items = items }))
    }

    /// Cancels call `id`: a suspended waiter gets CANCELLED now, and the broker gets a Cancel frame
    /// if it may still be working on the call. The Cancel goes through the outbox behind the call's
    /// own frame, never waiting: this runs in cancellation handlers and `deinit`, on any thread.
    func cancel(_ id: UInt64) {
        let (delivery, sendCancel) = table.withLock { $0.cancel(id) }
        if let delivery { resume(delivery) }
        if sendCancel { sendControl(.cancel(.with { $0.callID = id })) }
    }

    /// The generated Call of `request` with id `id`, deadline `timeoutMicros` (0: none) and stream
    /// credit `credit` (0 for a unary call).
    @inline(__always)
    static func call(_ id: UInt64, _ timeoutMicros: Int64, credit: UInt32 = 0, request: Proto.Call.Request) -> Proto.Call {
        var call = Proto.Call()
        call.callID = id
        call.timeoutMicros = timeoutMicros
        call.initialCredit = credit
        call.request = request
        return call
    }
}
