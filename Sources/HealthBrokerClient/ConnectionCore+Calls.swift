import BrokerModel
import Synchronization
import BrokerSupport
import BrokerWire

extension ConnectionCore {
    /// Registers a unary call and queues its frame (suspending while the outbox is full); returns its
    /// id, and whether it was the only call in flight (a solo call, which may hold: see
    /// `ConnectionCore+Hold`). The caller collects the result with `awaitUnary`.
    func startUnary(_ request: Proto.Call.Request, timeout: Duration?) async throws(BrokerError) -> (id: UInt64, solo: Bool) {
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        let (result, solo) = table.withLock { table in
            let result = table.openUnary(deadline: deadline, waiter: nil)
            return (result, table.count == 1)
        }
        let opened = try result.get()
        if opened.wakeLoop { wakeLoop() }
        try await send(.call(Self.call(opened.id, wireMicros, request: request)), callID: opened.id, deadline: deadline)
        return (opened.id, solo)
    }

    /// Registers a unary call whose result goes to `waiter`, and queues its frame without waiting
    /// (a task waits for room on its behalf if the outbox is full).
    func startUnary(_ request: Proto.Call.Request, timeout: Duration?, waiter: CallWaiter) throws(BrokerError) {
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        // The waiter is attached now: the loop must read for it (see `ReaderToken`).
        let (result, claimed) = table.withLock { table in
            let result = table.openUnary(deadline: deadline, waiter: waiter)
            return (result, readerToken.claimForLoop())
        }
        let opened = try result.get()
        if opened.wakeLoop || claimed { wakeLoop() }
        sendDetached(.call(Self.call(opened.id, wireMicros, request: request)), callID: opened.id, deadline: deadline)
    }

    /// Waits for unary call `id`'s result; task cancellation cancels the call (CANCELLED at once).
    ///
    /// A `solo` call (the only one in flight when it started) may first wait for its reply on its
    /// own thread (`holdForReply`); otherwise, or when that hold ends without the reply, the task
    /// suspends until the reader (usually the loop's thread) resumes it.
    func awaitUnary(_ id: UInt64, solo: Bool = false) async -> CallEvent {
        await withTaskCancellationHandler {
            let began = solo && !loop.isCurrent ? HoldBudget.now() : 0
            if began != 0, let held = holdForReply(id) {
                holdBudget.record(waitedNanos: HoldBudget.now() - began, takenInHold: true)
                return held
            }
            var resumedHere = false
            let event = await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                let (ready, claimed) = table.withLock { table -> (CallEvent?, Bool) in
                    if let ready = table.attach(id, waiter: .task(continuation)) { return (ready, false) }
                    // The waiter is attached: the loop must read for it (see `ReaderToken`).
                    return (nil, readerToken.claimForLoop())
                }
                if claimed { wakeLoop() }
                if let ready {
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
        // Items may come at any time from now on: the loop must read for them (see `ReaderToken`).
        let (result, claimed) = table.withLock { table in
            let result = table.openStream(deadline: deadline, window: credit)
            return (result, readerToken.claimForLoop())
        }
        let opened = try result.get()
        if opened.wakeLoop || claimed { wakeLoop() }
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
