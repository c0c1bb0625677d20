/// The frames one connection has yet to write, in order, and the callers waiting for room to queue
/// theirs.
///
/// Pure bookkeeping with no locks and no clock: the connection keeps it under its lock and passes
/// the write in (`send`: a non-blocking `send(2)` returning the bytes taken, 0 when the socket is
/// full, or a negative errno). Nothing here ever waits for the socket. Generic over the waiter so
/// tests can drive it without continuations.
///
/// Order: bytes leave in the order frames were admitted, and a frame is admitted only when every
/// frame parked before it has been (parked frames are admitted oldest first). A frame is written
/// straight from the caller (`submit`) only when nothing is queued, so it cannot overtake one.
///
/// Bound: a frame is admitted when it fits under `limit` together with what is queued, or when the
/// queue is empty (so a frame larger than the limit still goes, alone); otherwise its caller parks
/// until the queue drains enough. Queued bytes therefore never exceed `max(limit, the largest
/// frame)`, plus control frames: Cancel, Credit and raw test bytes are always admitted at once
/// (`submit(…, control: true)`), since they are a few bytes each, at most one or two per call, and
/// are sent from code that cannot suspend (cancellation handlers, `deinit`). A control frame may
/// pass parked frames; it never belongs to one of them (a parked call is withdrawn on cancel, never
/// sent, and a stream grants credit only after its call frame went out).
package struct Outbox<Waiter> {
    /// What became of a submitted frame.
    package enum Submitted: Equatable {
        /// Written whole to the socket.
        case written
        /// Queued for the loop (wholly or its unwritten rest); `wakeLoop`: the queue was empty
        /// until now, so the loop must be told to poll for writability.
        case queued(wakeLoop: Bool)
        /// No room: the caller must `park` it.
        case full
        /// The connection no longer writes (closed, or a write failed); nothing was queued.
        case closed
        /// The write failed with this errno; the outbox is now closed to writes.
        case failed(Int32)
    }

    /// A frame waiting for room, with its caller.
    private struct Parked {
        var bytes: [UInt8]
        var callID: UInt64
        var deadline: Int64?
        var waiter: Waiter
    }

    /// The default bound on queued bytes (see the type's documentation).
    package static var defaultLimit: Int { 1 << 20 }

    /// The bound on queued bytes.
    package let limit: Int
    /// Admitted frames not yet written, oldest from `head` on; the one at `head` may be partly
    /// written (`offset` bytes of it).
    private var frames: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    /// Bytes admitted and not yet written.
    package private(set) var queuedBytes = 0
    /// Frames waiting for room, oldest first.
    private var parked: [Parked] = []
    /// Set once the outbox takes no more frames: the connection ended, or a write failed.
    package private(set) var isClosed = false
    /// A failed write's errno that the loop has not handled yet.
    private var unhandledFailure: Int32?
    /// Calls cancelled between finding no room and parking (rare, and short-lived).
    private var cancelledBeforeParking: [UInt64] = []
    /// An empty buffer with capacity, handed out for the next frame's encoding.
    private var spare: [UInt8] = []

    /// Above this capacity a written frame's buffer is dropped instead of kept as the spare.
    static var spareCapacityLimit: Int { 64 * 1024 }

    /// An empty outbox admitting up to `limit` queued bytes.
    package init(limit: Int = defaultLimit) {
        self.limit = limit
    }

    /// True while bytes wait for the socket to take them (the loop polls for writability).
    package var hasBacklog: Bool { queuedBytes > 0 }

    /// Frames waiting for room.
    package var parkedCount: Int { parked.count }

    /// True while the loop has something to do here: bytes to write, parked frames (whose
    /// deadlines it watches), or a failed write to deal with.
    package var needsLoop: Bool { queuedBytes > 0 || !parked.isEmpty || unhandledFailure != nil }

    /// An empty buffer to encode the next frame into (reused, so a call usually allocates none).
    package mutating func takeBuffer() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &spare)
        // Emptied here rather than when kept: then the writer's own reference is gone, so this
        // keeps the storage instead of copying it.
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Writes `bytes` at once if nothing is queued, else queues them if they fit (always, for a
    /// `control` frame); `.full` when the caller must park.
    package mutating func submit(_ bytes: [UInt8], control: Bool = false, send: (UnsafeRawBufferPointer) -> Int) -> Submitted {
        if isClosed { return .closed }
        if queuedBytes == 0 {
            let sent = bytes.withUnsafeBytes { send($0) }
            if sent < 0 { return fail(Int32(-sent)) }
            if sent == bytes.count {
                keepSpare(bytes)
                return .written
            }
            frames.append(bytes)
            offset = sent
            queuedBytes = bytes.count - sent
            return .queued(wakeLoop: true)
        }
        guard control || (parked.isEmpty && fits(bytes.count)) else { return .full }
        admit(bytes)
        return .queued(wakeLoop: false)
    }

    /// Parks `bytes` (call `callID`'s frame) behind the frames already parked, or admits them now if
    /// room returned meanwhile; true when admitted (the caller goes on, `waiter` is not kept).
    /// When the outbox is closed the frame is dropped and true returned: the call's outcome comes
    /// from the call table. Nil when the call was cancelled before it could park (`cancelParked`):
    /// the frame is dropped, never sent.
    package mutating func park(_ bytes: [UInt8], callID: UInt64, deadline: Int64?, waiter: Waiter) -> Bool? {
        if let index = cancelledBeforeParking.firstIndex(of: callID) {
            cancelledBeforeParking.remove(at: index)
            return nil
        }
        if isClosed { return true }
        if parked.isEmpty && (queuedBytes == 0 || fits(bytes.count)) {
            // Nothing queued means nothing to wait for: the loop writes it (the caller never does
            // here, as it may be any thread).
            admit(bytes)
            return true
        }
        parked.append(Parked(bytes: bytes, callID: callID, deadline: deadline, waiter: waiter))
        return false
    }

    /// Call `callID`'s caller was cancelled while its frame waits for room: takes the frame back if
    /// it is parked (never to be sent) and returns its waiter; if it is not parked yet, makes its
    /// `park` refuse it. Either way no Cancel frame is needed: the broker never sees the call.
    package mutating func cancelParked(_ callID: UInt64) -> Waiter? {
        guard let index = parked.firstIndex(where: { $0.callID == callID }) else {
            cancelledBeforeParking.append(callID)
            return nil
        }
        return parked.remove(at: index).waiter
    }

    /// Forgets a `cancelParked` mark that no `park` consumed (the caller was admitted first).
    package mutating func forgetCancellation(_ callID: UInt64) {
        cancelledBeforeParking.removeAll { $0 == callID }
    }

    /// Takes back every parked frame whose call's deadline is at or before `now`; returns their waiters.
    package mutating func withdrawExpired(now: Int64, into waiters: inout [Waiter]) {
        guard parked.contains(where: { ($0.deadline ?? .max) <= now }) else { return }
        parked.removeAll { entry in
            guard let deadline = entry.deadline, deadline <= now else { return false }
            waiters.append(entry.waiter)
            return true
        }
    }

    /// Writes queued bytes until the socket is full or nothing is left, then admits parked frames
    /// while they fit; appends the admitted frames' waiters to `admitted` and returns the errno of
    /// a failed write (the outbox is then closed), if any.
    package mutating func flush(into admitted: inout [Waiter], send: (UnsafeRawBufferPointer) -> Int) -> Int32? {
        while head < frames.count {
            let sent = frames[head].withUnsafeBytes { raw in
                send(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            if sent < 0 {
                if case .failed(let code) = fail(Int32(-sent)) { return code }
                return nil
            }
            if sent == 0 { break }
            offset += sent
            queuedBytes -= sent
            guard offset == frames[head].count else { continue }
            frames[head] = []
            head += 1
            offset = 0
        }
        if head == frames.count {
            frames.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= frames.count {
            frames.removeFirst(head)
            head = 0
        }
        while let first = parked.first, queuedBytes == 0 || fits(first.bytes.count) {
            parked.removeFirst()
            admit(first.bytes)
            admitted.append(first.waiter)
        }
        return nil
    }

    /// Closes the outbox (the connection ended): queued frames are dropped; returns the parked
    /// frames' waiters, to resume.
    package mutating func close() -> [Waiter] {
        isClosed = true
        frames = []
        head = 0
        offset = 0
        queuedBytes = 0
        let waiters = parked.map(\.waiter)
        parked = []
        return waiters
    }

    /// The errno of a write that failed outside the loop, once (the loop then ends the connection).
    package mutating func takeUnhandledFailure() -> Int32? {
        defer { unhandledFailure = nil }
        return unhandledFailure
    }

    private func fits(_ count: Int) -> Bool {
        count <= limit - queuedBytes
    }

    private mutating func admit(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        frames.append(bytes)
        queuedBytes += bytes.count
    }

    private mutating func keepSpare(_ bytes: [UInt8]) {
        guard spare.capacity == 0, bytes.capacity <= Self.spareCapacityLimit else { return }
        spare = bytes
    }

    /// Closes the outbox to writes after a failed write with `code`, keeping `code` for the loop.
    private mutating func fail(_ code: Int32) -> Submitted {
        isClosed = true
        unhandledFailure = code
        frames = []
        head = 0
        offset = 0
        queuedBytes = 0
        return .failed(code)
    }
}
