import BrokerModel
package import BrokerWire

extension CallTable {
    /// Applies one frame from the broker for a non-zero call id; returns the delivery it causes, if any.
    ///
    /// Frames for unknown or finished calls (late replies) are ignored.
    package mutating func receive(_ frame: Proto.ServerFrame) -> Delivery? {
        let id = frame.callID
        // By index: one hash look-up per reply, and the entry is not copied out.
        if let index = unaryCalls.index(forKey: id) {
            guard unaryCalls.values[index].outcome == nil else { return nil }
            let event = CallEvent.unaryOutcome(of: frame)
            if let waiter = unaryCalls.values[index].waiter {
                unaryCalls.remove(at: index)
                return Delivery(waiter: waiter, event: event)
            }
            unaryCalls.values[index].outcome = event
            unaryCalls.values[index].deadline = nil
            return nil
        }
        // Index-based access mutates the stored entry in place (copying it out would copy its buffer).
        guard let index = streamCalls.index(forKey: id), streamCalls.values[index].end == nil else { return nil }
        if let status = frame.status {
            return endStream(id, with: status.error.map(CallEvent.failure) ?? .end)
        }
        guard case .streamItem(let item) = frame.response else {
            return endStream(id, with: .failure(.internal("the broker answered a stream with a non-stream response")))
        }
        guard streamCalls.values[index].credit.receive() else {
            return endStream(id, with: .failure(.internal("the broker sent more stream items than it was granted")))
        }
        if let waiter = streamCalls.values[index].waiter {
            streamCalls.values[index].waiter = nil
            let grant = streamCalls.values[index].credit.take()
            return Delivery(waiter: waiter, event: .item(item, grant: grant))
        }
        streamCalls.values[index].buffer.append(item)
        return nil
    }

    /// Ends stream `id` with `event`: hands it to a waiting consumer (finishing the call), or keeps
    /// it until the consumer has drained the buffer.
    private mutating func endStream(_ id: UInt64, with event: CallEvent) -> Delivery? {
        if let waiter = streamCalls[id]?.waiter {
            streamCalls[id] = nil
            return Delivery(waiter: waiter, event: event)
        }
        streamCalls[id]?.end = event
        streamCalls[id]?.deadline = nil
        return nil
    }

    /// Cancels call `id` on the caller's behalf: the call finishes with CANCELLED. Returns the waiter
    /// to resume, if one was suspended, and whether a Cancel frame should go to the broker (the broker
    /// may still be working on it).
    package mutating func cancel(_ id: UInt64) -> (delivery: Delivery?, sendCancel: Bool) {
        let live = closedError == nil
        if let call = unaryCalls[id] {
            guard call.outcome == nil else { return (nil, false) }
            if let waiter = call.waiter {
                unaryCalls[id] = nil
                return (Delivery(waiter: waiter, event: .failure(.callCancelled)), live)
            }
            unaryCalls[id]?.outcome = .failure(.callCancelled)
            unaryCalls[id]?.deadline = nil
            return (nil, live)
        }
        if let call = streamCalls.removeValue(forKey: id) {
            let delivery = call.waiter.map { Delivery(waiter: $0, event: .failure(.callCancelled)) }
            return (delivery, live && call.end == nil)
        }
        return (nil, false)
    }

    /// Fails every unfinished call whose deadline is at or before `now` with DEADLINE_EXCEEDED and
    /// recomputes `wakeAt`. Does nothing before `wakeAt`. Buffered stream items stay takeable.
    package mutating func expire(now: Int64, into deliveries: inout [Delivery]) {
        guard let due = wakeAt, due <= now else { return }
        var next: Int64?
        for id in Array(unaryCalls.keys) {
            guard let deadline = unaryCalls[id]?.deadline else { continue }
            if deadline > now {
                next = min(next ?? deadline, deadline)
            } else if let waiter = unaryCalls[id]?.waiter {
                unaryCalls[id] = nil
                deliveries.append(Delivery(waiter: waiter, event: .failure(.clientDeadlineExceeded)))
            } else {
                unaryCalls[id]?.outcome = .failure(.clientDeadlineExceeded)
                unaryCalls[id]?.deadline = nil
            }
        }
        for id in Array(streamCalls.keys) {
            guard let deadline = streamCalls[id]?.deadline else { continue }
            if deadline > now {
                next = min(next ?? deadline, deadline)
            } else if let delivery = endStream(id, with: .failure(.clientDeadlineExceeded)) {
                deliveries.append(delivery)
            }
        }
        wakeAt = next
    }

    /// Closes the table: every unfinished call fails with `pendingError` (stream items already
    /// buffered stay takeable first) and every later `open…` fails with `laterError`. Returns false
    /// (doing nothing) when it was already closed.
    @discardableResult
    package mutating func close(failingPendingWith pendingError: BrokerError, laterCallsWith laterError: BrokerError, into deliveries: inout [Delivery]) -> Bool {
        guard closedError == nil else { return false }
        closedError = laterError
        wakeAt = nil
        for id in Array(unaryCalls.keys) {
            guard unaryCalls[id]?.outcome == nil else { continue }
            if let waiter = unaryCalls[id]?.waiter {
                unaryCalls[id] = nil
                deliveries.append(Delivery(waiter: waiter, event: .failure(pendingError)))
            } else {
                unaryCalls[id]?.outcome = .failure(pendingError)
                unaryCalls[id]?.deadline = nil
            }
        }
        for id in Array(streamCalls.keys) where streamCalls[id]?.end == nil {
            if let delivery = endStream(id, with: .failure(pendingError)) { deliveries.append(delivery) }
        }
        return true
    }
}
