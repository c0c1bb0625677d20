import BrokerModel
import BrokerSupport
import BrokerWire

extension ConnectionCore {
    /// Registers a unary call and writes it; returns its id. With a `waiter` the result goes to it,
    /// otherwise the caller collects it with `awaitUnary`.
    func startUnary(_ request: Request, timeout: Duration?, waiter: CallWaiter?) throws(BrokerError) -> UInt64 {
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        let opened = try table.withLock { $0.openUnary(deadline: deadline, waiter: waiter) }.get()
        if opened.wakeLoop { wakeLoop() }
        try send(.call(Call(callID: opened.id, timeoutMicros: wireMicros, request: request)), discarding: opened.id)
        return opened.id
    }

    /// Waits for unary call `id`'s result; task cancellation cancels the call (CANCELLED at once).
    func awaitUnary(_ id: UInt64) async -> CallEvent {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                if let ready = table.withLock({ $0.attach(id, waiter: .task(continuation)) }) {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Registers a streaming call with `window` items of credit and writes it; returns its id.
    func startStream(_ request: Request, timeout: Duration?, window: UInt32) throws(BrokerError) -> UInt64 {
        // The broker clamps a window past `Call.maxStreamCredit`; so does the client, or it would wait
        // for items the broker will not send before it grants again.
        let credit = min(window == 0 ? Call.defaultStreamCredit : window, Call.maxStreamCredit)
        let (wireMicros, deadline) = try Self.deadline(for: timeout, now: timeout == nil ? 0 : Microseconds.monotonic())
        let opened = try table.withLock { $0.openStream(deadline: deadline, window: credit) }.get()
        if opened.wakeLoop { wakeLoop() }
        let call = Call(callID: opened.id, timeoutMicros: wireMicros, initialCredit: credit, request: request)
        try send(.call(call), discarding: opened.id)
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
            await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                if let ready = table.withLock({ $0.nextStreamEvent(id, waiter: .task(continuation)) }) {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Grants stream `id` room for `items` more items. A write failure closes the connection, which
    /// the stream then reports.
    func grant(_ id: UInt64, items: UInt32) {
        try? send(.credit(callID: id, items: items))
    }

    /// Cancels call `id`: a suspended waiter gets CANCELLED now, and the broker gets a Cancel frame
    /// if it may still be working on the call.
    func cancel(_ id: UInt64) {
        let (delivery, sendCancel) = table.withLock { $0.cancel(id) }
        if let delivery { delivery.waiter.deliver(delivery.event) }
        if sendCancel { try? send(.cancel(callID: id)) }
    }
}
