#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import BrokerModel
import BrokerWire

/// A caller whose frame waits for room in the outbox: resumed with true to go on (its frame was
/// admitted, or its outcome is in the call table), false when it was cancelled before its frame went
/// anywhere. Nil for a frame parked by code that does not wait (`sendDetached`).
typealias RoomWaiter = UnsafeContinuation<Bool, Never>?

extension ConnectionCore {
    /// Queues call `callID`'s `frame` for the socket. Never blocks: the frame is written at once
    /// only if nothing is queued and the socket takes it without waiting; otherwise the loop writes
    /// it, in order. While the outbox is full this suspends until room returns (or `deadline`
    /// passes, or the connection ends: the call table then holds the call's outcome).
    ///
    /// Task cancellation while suspended takes the frame back unsent: the call is forgotten and
    /// CANCELLED thrown, and the broker never hears of it. `beforeParking` runs first when the frame
    /// must park (the task may then suspend).
    func send(_ frame: Proto.ClientFrame.Kind, callID: UInt64, deadline: Int64?, beforeParking: (() -> Void)? = nil) async throws(BrokerError) {
        guard let bytes = submit(frame, control: false) else { return }
        beforeParking?()
        let proceed = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<Bool, Never>) in
                switch withOutbox({ $0.park(bytes, callID: callID, deadline: deadline, waiter: waiter) }) {
                case true?:
                    wakeLoop()  // the frame may have gone into an empty queue the loop does not watch
                    waiter.resume(returning: true)
                case false?:
                    break
                case nil:
                    waiter.resume(returning: false)
                }
            }
        } onCancel: {
            self.withOutbox { $0.cancelParked(callID) }??.resume(returning: false)
        }
        guard proceed else {
            if table.withLock({ $0.discard(callID) }) { wakeLoop() }
            throw .callCancelled
        }
        withOutbox { $0.forgetCancellation(callID) }
    }

    /// Queues a call frame from code that cannot suspend (a completion-handler call). When the
    /// outbox is full the frame parks at once, so it keeps its place behind frames submitted
    /// before it, and nobody waits for it; the call's result comes through its waiter as usual.
    func sendDetached(_ frame: Proto.ClientFrame.Kind, callID: UInt64, deadline: Int64?) {
        guard let bytes = submit(frame, control: false) else { return }
        if withOutbox({ $0.park(bytes, callID: callID, deadline: deadline, waiter: nil) }) == true { wakeLoop() }
    }

    /// Queues a Cancel or Credit frame: never waits for room (see `Outbox`). A write failure ends the
    /// connection, which its calls then report.
    func sendControl(_ frame: Proto.ClientFrame.Kind) {
        _ = submit(frame, control: true)
    }

    /// Writes `bytes` as they are, like a control frame; throws if the connection no longer writes.
    func sendRaw(_ bytes: [UInt8]) throws(BrokerError) {
        if let closedError { throw closedError }
        switch submitBytes(bytes, control: true) {
        case .written, .queued, .full:
            return
        case .closed:
            throw closedError ?? .connectionClosed(socketPath, "the connection no longer writes")
        case .failed(let code):
            throw .connectionClosed(socketPath, Self.writeFailureReason(code))
        }
    }

    /// Encodes `frame` and submits it; returns its bytes when they must park (the outbox is full).
    private func submit(_ frame: Proto.ClientFrame.Kind, control: Bool) -> [UInt8]? {
        var bytes = withOutbox { $0.takeBuffer() }
        // The generated per-kind appenders write the frame without boxing its kind in a ClientFrame.
        switch frame {
        case .call(let call): Proto.ClientFrame.appendFrame(call: call, to: &bytes)
        case .cancel(let cancel): Proto.ClientFrame.appendFrame(cancel: cancel, to: &bytes)
        case .credit(let credit): Proto.ClientFrame.appendFrame(credit: credit, to: &bytes)
        }
        if case .full = submitBytes(bytes, control: control) { return bytes }
        return nil
    }

    /// Hands `bytes` to the outbox (a non-blocking write if nothing is queued) and wakes the loop
    /// when it has something new to do: a backlog to write, or a failed write to deal with.
    private func submitBytes(_ bytes: [UInt8], control: Bool) -> Outbox<RoomWaiter>.Submitted {
        let fd = socketFD
        let submitted = withOutbox { $0.submit(bytes, control: control) { UnixSocket.sendSome(fd, $0) } }
        switch submitted {
        case .queued(wakeLoop: true), .failed: wakeLoop()
        case .written, .queued(wakeLoop: false), .full, .closed: break
        }
        return submitted
    }

    /// Runs `body` on the outbox under its lock and republishes `outboxNeedsLoop`.
    @inline(__always)
    func withOutbox<R>(_ body: (inout Outbox<RoomWaiter>) -> R) -> R {
        outbox.withLock { outbox in
            let result = body(&outbox)
            let needsLoop = outbox.needsLoop
            if outboxNeedsLoop.load(ordering: .relaxed) != needsLoop { outboxNeedsLoop.store(needsLoop, ordering: .releasing) }
            return result
        }
    }

    /// True while the outbox has bytes for the socket (the loop then polls for writability). Loop thread.
    var wantsWritable: Bool {
        outboxNeedsLoop.load(ordering: .acquiring) && outbox.withLock { $0.hasBacklog }
    }

    /// Writes what the socket takes of the outbox, resumes the callers whose frames it admitted, and
    /// ends the connection if a write failed. Loop thread, socket writable.
    func flushOutbox() {
        let fd = socketFD
        var admitted: [RoomWaiter] = []
        let failure = withOutbox { outbox in
            outbox.flush(into: &admitted) { UnixSocket.sendSome(fd, $0) } ?? outbox.takeUnhandledFailure()
        }
        for waiter in admitted { waiter?.resume(returning: true) }
        if let failure { writeFailed(failure) }
    }

    /// Resumes the callers whose parked frames' deadlines passed (their calls already hold
    /// DEADLINE_EXCEEDED), and deals with a write that failed on another thread. Loop thread.
    func checkOutbox(now: Int64) {
        guard outboxNeedsLoop.load(ordering: .acquiring) else { return }
        var expired: [RoomWaiter] = []
        let failure = withOutbox { outbox in
            outbox.withdrawExpired(now: now, into: &expired)
            return outbox.takeUnhandledFailure()
        }
        for waiter in expired { waiter?.resume(returning: true) }
        if let failure { writeFailed(failure) }
    }

    /// Closes the outbox (the connection ended) and resumes every parked caller.
    func closeOutbox() {
        for waiter in withOutbox({ $0.close() }) { waiter?.resume(returning: true) }
    }

    /// Why a write with errno `code` ended the connection.
    static func writeFailureReason(_ code: Int32) -> String {
        code == EPIPE || code == ECONNRESET ? "the broker closed the connection" : "write failed: \(UnixSocket.errorName(code))"
    }
}
