import BrokerCore
import CLibUV
import Foundation

/// A libuv event loop and the services built on it: cross-thread hand-off, timers, and the
/// end-of-turn flush of connection output.
///
/// Everything except `execute(_:)` must be called on the loop thread (the thread running `run()`).
/// `execute(_:)` is the thread-safe way in: it queues work and wakes the loop with `uv_async_send`.
public final class EventLoop: @unchecked Sendable {
    let rawLoop: UnsafeMutablePointer<uv_loop_t>
    private var waker: LoopWaker!
    private var turnHook: LoopTurnHook!
    private var timer: LoopTimer!
    private var timers = TimerHeap<() -> Void>()
    // Loop-thread only and never accessed overlapping: no runtime exclusivity check (see PipeConnection).
    @exclusivity(unchecked) private var dirtyConnections: [PipeConnection] = []
    private var armedDeadline: Int64?
    private var isClosing = false

    /// Frames queued for writing since the loop started (all connections).
    @exclusivity(unchecked) public internal(set) var framesSent: UInt64 = 0
    /// Write syscalls made for them (`uv_try_write` and `uv_write`); far fewer than frames under load.
    @exclusivity(unchecked) public internal(set) var writeCalls: UInt64 = 0

    /// A shared receive buffer: libuv fills it and the read callback consumes it before the next read.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// Creates a loop with its wake-up, timer and flush handles.
    public init() throws(UVError) {
        rawLoop = uvAllocate(uv_loop_t.self)
        try uvCheck(uv_loop_init(rawLoop), "uv_loop_init")
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        waker = try LoopWaker(loop: rawLoop)
        timer = try LoopTimer(loop: rawLoop)
        turnHook = try LoopTurnHook(loop: rawLoop) { [unowned self] in self.flushDirtyConnections() }
    }

    deinit {
        uv_loop_close(rawLoop)
        rawLoop.deallocate()
        readBuffer.deallocate()
    }

    /// Runs the loop on the calling thread until every handle is closed.
    public func run() {
        uv_run(rawLoop, UV_RUN_DEFAULT)
        // Let close callbacks queued by the last turn run.
        uv_run(rawLoop, UV_RUN_NOWAIT)
    }

    /// Queues `work` to run on the loop thread; thread-safe. Returns false once the loop is closing.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        waker.enqueue(work)
    }

    /// Closes the loop's own handles so that `run()` returns once the caller's handles are closed too.
    ///
    /// Runs work already queued through `execute` first; later `execute` calls return false.
    public func close() {
        guard !isClosing else { return }
        isClosing = true
        flushDirtyConnections()
        waker.close()
        timers = TimerHeap()
        timer.close()
        turnHook.close()
    }

    // MARK: Timers

    /// Runs `action` on the loop thread after `micros` microseconds; returns a token for `cancelTimer`.
    @discardableResult
    public func schedule(afterMicros micros: Int64, _ action: @escaping () -> Void) -> TimerToken {
        let deadline = Microseconds.monotonic() + max(0, micros)
        let id = timers.insert(deadline: deadline, action)
        armTimer()
        return TimerToken(id: id)
    }

    /// Cancels a scheduled action; a no-op when it already ran.
    public func cancelTimer(_ token: TimerToken) {
        timers.cancel(token.id)
    }

    private func armTimer() {
        guard !isClosing, let earliest = timers.earliestDeadline() else {
            if armedDeadline != nil, !isClosing { timer.stop() }
            armedDeadline = nil
            return
        }
        if let armed = armedDeadline, armed <= earliest { return }
        armedDeadline = earliest
        let now = Microseconds.monotonic()
        // Round up to whole milliseconds so the timer never fires before the deadline.
        let delayMillis = UInt64(max(0, earliest - now) + 999) / 1_000
        timer.start(milliseconds: delayMillis) { [unowned self] in self.fireTimers() }
    }

    private func fireTimers() {
        armedDeadline = nil
        uv_update_time(rawLoop)
        let due = timers.popDue(now: Microseconds.monotonic())
        for action in due { action() }
        armTimer()
    }

    // MARK: Output batching

    /// Marks a connection as having output to flush at the end of this loop turn.
    func markDirty(_ connection: PipeConnection) {
        dirtyConnections.append(connection)
    }

    private func flushDirtyConnections() {
        while !dirtyConnections.isEmpty {
            let batch = dirtyConnections
            dirtyConnections.removeAll(keepingCapacity: true)
            for connection in batch { connection.flush() }
        }
    }
}

/// Identifies a scheduled timer action.
public struct TimerToken: Sendable, Hashable {
    let id: UInt64
}
