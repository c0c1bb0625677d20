#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import Synchronization
import BrokerWire

/// A connection's read-side state, used only by the socket's reader (`CallTable.reader`: the loop's
/// thread, or a solo call's caller during a hold), except `expired`, the loop's alone.
///
/// Confinement: `decoder`, `scratch`, `frames` and `deliveries` are touched only in `readReady`,
/// which runs only on the reader's thread (readers change under the connection's lock, so each
/// reader sees the last one's writes); `expired` only in `expireDeadlines`, on the
/// loop's thread. That makes the `@unchecked Sendable` sound. For the same reason its properties opt
/// out of Swift's run-time exclusivity checks, which every read of the socket would otherwise pay
/// several times.
final class ReaderState: @unchecked Sendable {
    @exclusivity(unchecked) var decoder = FrameDecoder(maxFrameBytes: ConnectionCore.maxIncomingFrameBytes)
    @exclusivity(unchecked) var scratch = [UInt8](repeating: 0, count: ConnectionCore.readChunkBytes)
    @exclusivity(unchecked) var frames: [Proto.ServerFrame] = []
    @exclusivity(unchecked) var deliveries: [CallTable<CallWaiter>.Delivery] = []
    @exclusivity(unchecked) var expired: [CallTable<CallWaiter>.Delivery] = []
}

extension ConnectionCore {
    /// Fails the calls whose deadline passed; returns `poll(2)`'s timeout (ms) until the next one
    /// (-1: none), or nil once the connection is closed (the loop then stops reading it). Loop thread.
    func expireDeadlines(now: Int64) -> Int32? {
        let timeout: Int32? = table.withLock { table in
            guard table.closedError == nil else { return nil }
            table.expire(now: now, into: &reader.expired)
            return Self.pollTimeout(until: table.wakeAt, now: now)
        }
        deliver(&reader.expired)
        return timeout
    }

    /// Reads what the socket has, decodes every whole frame and routes replies to their calls.
    /// Returns false once the connection has ended: EOF, a read error, a bad frame or a
    /// connection-level error (call id 0) fail everything pending. Only by the socket's reader
    /// (`onLoop`: the loop's thread, which stops reading once no call is in flight, so the next solo
    /// call's caller may read for its reply; else a holder); socket readable.
    ///
    /// Frames of one read are applied under one lock acquisition and their waiters resumed after
    /// unlocking.
    func readReady(onLoop: Bool) -> Bool {
        assert(readerToken.current == (onLoop ? .loop : .held), "a read by \(onLoop ? "the loop" : "a holder") while the reader is \(readerToken.current)")
        let count = reader.scratch.withUnsafeMutableBytes { read(socketFD, $0.baseAddress, $0.count) }
        if count <= 0 {
            let code = count < 0 ? errno : 0
            if count < 0 && (code == EINTR || code == EAGAIN) { return true }
            let reason = count == 0 || code == ECONNRESET
                ? "the broker closed the connection" : "read failed: \(UnixSocket.errorName(code))"
            let error = BrokerError.connectionClosed(socketPath, reason)
            shutDown(failingPendingWith: error, laterCallsWith: error)
            return false
        }
        // Whole frames are decoded straight from the read buffer; only a partial one is kept.
        let badFrame: BrokerError? = reader.scratch.withUnsafeBytes { bytes in
            do throws(BrokerError) {
                try reader.decoder.receive(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { payload throws(BrokerError) in
                    guard let frame = Proto.ServerFrame.decode(payload) else { throw WireCodec.undecodable("ServerFrame") }
                    reader.frames.append(frame)
                    return true
                }
                return nil
            } catch {
                return .malformedReply(error)
            }
        }
        // `closedWith`: the error later calls get, when this closed the table; `emptied`: no call is in
        // flight after these frames.
        let (stop, closedWith, emptied): (Bool, BrokerError?, Bool) = table.withLock { table in
            for frame in reader.frames {
                if frame.callID == 0 {
                    let error = frame.status?.error ?? .connectionClosed(socketPath, "the broker closed the connection")
                    // Later calls learn why, with the broker's own status (e.g. RESOURCE_EXHAUSTED for
                    // a connection refused at the limit, UNAUTHENTICATED for a removed app).
                    let later = frame.status?.error.map {
                        BrokerError(code: $0.code, domain: $0.domain, message: "the broker closed the connection at \(socketPath): \($0.message)")
                    } ?? BrokerError.connectionClosed(socketPath, "the broker closed the connection")
                    let closedNow = table.close(failingPendingWith: error, laterCallsWith: later, into: &reader.deliveries)
                    return (true, closedNow ? later : nil, false)
                }
                if let delivery = table.receive(frame) { reader.deliveries.append(delivery) }
            }
            if let badFrame {
                let later = BrokerError.connectionClosed(socketPath, badFrame.message)
                let closedNow = table.close(failingPendingWith: badFrame, laterCallsWith: later, into: &reader.deliveries)
                return (true, closedNow ? later : nil, false)
            }
            return (false, nil, table.count == 0)
        }
        reader.frames.removeAll(keepingCapacity: true)
        deliver(&reader.deliveries)
        guard stop else {
            if onLoop && emptied { loopStopsReadingIfIdle() }
            return true
        }
        closeOutbox()
        _ = shutdown(socketFD, Int32(SHUT_RDWR))
        if let closedWith { announceClosed(closedWith) }
        return false
    }

    /// Stops reading when no call is in flight (loop thread, the reader, done with `ReaderState`):
    /// nobody need read until a call is registered (its caller then reads for it, or the loop again);
    /// the loop keeps watching for a hang-up. Under the table's lock (`loopStopsReading` checks that
    /// nothing is registered), so no call can be registered between the check and the change.
    ///
    /// Only when at most one task it resumed is still to run (a solo caller's): when many tasks
    /// call at once and one read answered them all, they are about to call again, none will hold,
    /// and stopping would cost the first of them a write to the loop's wake pipe. Nor without a hold
    /// budget (none learnt yet, or replies too slow for a hold): no caller would read.
    private func loopStopsReadingIfIdle() {
        guard holdBudget.enabled.load(ordering: .relaxed), resumedTasks.load(ordering: .relaxed) <= 1, holdBudget.nanos > 0 else { return }
        table.withLock { $0.loopStopsReading() }
    }

    /// True when the loop may read the socket now: it is the reader, or it takes over from nobody
    /// (false: a solo call's caller holds it, and reads, or ends the connection, itself). Loop thread.
    func loopMayRead() -> Bool {
        readerToken.current == .loop || table.withLock { $0.loopReadsAgain() }
    }

    /// Waits up to `milliseconds` (-1: no limit) for the socket to be readable (or, with
    /// `orWritable`, writable) and reads it once if it is readable; for code on the loop's thread
    /// that must see the broker's next frames before it goes on. Loop thread.
    func pumpReads(milliseconds: Int32, orWritable: Bool = false) {
        var one = pollfd(fd: socketFD, events: Int16(POLLIN) | (orWritable ? Int16(POLLOUT) : 0), revents: 0)
        guard poll(&one, 1, milliseconds) > 0, one.revents & ~Int16(POLLOUT) != 0 else { return }
        guard table.withLock({ $0.closedError }) == nil else { return }
        // A solo call's caller holding the socket reads (and ends the connection) itself.
        guard loopMayRead() else {
            _ = poll(nil, 0, milliseconds)
            return
        }
        _ = readReady(onLoop: true)
    }

    /// Resumes and empties `deliveries` (outside every lock).
    func deliver(_ deliveries: inout [CallTable<CallWaiter>.Delivery]) {
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries { resume(delivery) }
        deliveries.removeAll(keepingCapacity: true)
    }

    /// `poll(2)`'s timeout in milliseconds until `wakeAt` (rounded up), or -1 for none.
    static func pollTimeout(until wakeAt: Int64?, now: Int64) -> Int32 {
        guard let wakeAt else { return -1 }
        let remaining = wakeAt - now
        guard remaining > 0 else { return 0 }
        return Int32(clamping: remaining / 1_000 + (remaining % 1_000 == 0 ? 0 : 1))
    }
}
