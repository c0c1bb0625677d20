import BrokerSupport
package import CLibUV
import Foundation
import Synchronization

/// A libuv event loop and the services built on it: cross-thread hand-off, timers, and the
/// end-of-turn flush of connection output.
///
/// Everything except `execute(_:)` and `isInLoop` must be called on the loop thread: the thread
/// that created the loop until `run()` starts, then the thread running it (so a loop may be set up
/// on one thread and run on another). `execute(_:)` is the thread-safe way in: it queues work and
/// wakes the loop with `uv_async_send`. Loop-confined entry points call `assertInLoop()`, which
/// checks that in debug builds and costs nothing in release builds.
public final class EventLoop: @unchecked Sendable {
    package let rawLoop: UnsafeMutablePointer<uv_loop_t>
    /// `pthread_self()` of the loop thread. Atomic because `isInLoop` may be asked on any thread;
    /// relaxed suffices: a thread only ever needs to recognise its own id, which it stored itself
    /// (or which was stored before the loop was handed to it).
    private let loopThread = Atomic<UInt>(0)
    /// `uv_loop_close`'s result once `run()` has returned after `close()`; nil until then.
    private var closeResult: Int32?
    private var waker: LoopWaker!
    private var turnHook: LoopTurnHook!
    private var timer: LoopTimer!
    private var timers = TimerHeap<() -> Void>()
    // Touched for every reply: without the run-time exclusivity check, measured at ~75 instructions
    // per access (benchmarks/PROFILE.md, item 9). Safe: loop thread only, and `markDirty` and
    // `flushDirtyConnections` each touch it in single statements (the batch is a copy).
    @exclusivity(unchecked) private var dirtyConnections: [PipeConnection] = []
    private var armedDeadline: Int64?
    private var isClosing = false

    /// Frames queued for writing since the loop started (all connections).
    ///
    /// Counted per frame, so without the run-time exclusivity check (PROFILE.md, item 9); each
    /// access is one statement on the loop thread.
    @exclusivity(unchecked) public internal(set) var framesSent: UInt64 = 0
    /// Write syscalls made for them (`uv_try_write` and `uv_write`); far fewer than frames under load.
    ///
    /// Counted per flush, beside `framesSent` and for the same reason (PROFILE.md, item 9).
    @exclusivity(unchecked) public internal(set) var writeCalls: UInt64 = 0

    /// A shared receive buffer: libuv fills it and the read callback consumes it before the next read.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// Creates a loop with its wake-up, timer and flush handles.
    public init() throws(UVError) {
        rawLoop = uvAllocate(uv_loop_t.self)
        let initResult = uv_loop_init(rawLoop)
        if initResult < 0 {
            rawLoop.deallocate()
            throw UVError(code: initResult, operation: "uv_loop_init")
        }
        loopThread.store(Self.currentThread, ordering: .relaxed)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        waker = try LoopWaker(loop: rawLoop)
        timer = try LoopTimer(loop: rawLoop)
        turnHook = try LoopTurnHook(loop: rawLoop) { [unowned self] in self.flushDirtyConnections() }
    }

    deinit {
        readBuffer.deallocate()
        if closeResult == 0 {
            rawLoop.deallocate()
            return
        }
        let result = uv_loop_close(rawLoop)
        guard result == 0 else {
            // A handle is still open (UV_EBUSY): its memory points into the loop, so the loop's
            // memory is kept rather than freed under it. A bug in whoever left the handle open.
            Logger(component: "healthbrokerd").error("event loop dropped with handles still open; its memory is kept", [
                "error": UVError(code: result, operation: "uv_loop_close").description,
            ])
            return
        }
        rawLoop.deallocate()
    }

    /// Runs the loop on the calling thread until every handle is closed; the calling thread becomes
    /// the loop thread.
    ///
    /// Once `close()` has been called and the last handle is closed, the loop itself is closed
    /// (`uv_loop_close`); `closedCleanly` tells whether that found every handle closed.
    public func run() {
        loopThread.store(Self.currentThread, ordering: .relaxed)
        uv_run(rawLoop, UV_RUN_DEFAULT)
        // Let close callbacks queued by the last turn run.
        uv_run(rawLoop, UV_RUN_NOWAIT)
        if isClosing, closeResult != 0 { closeResult = uv_loop_close(rawLoop) }
    }

    /// Runs one turn of the loop on the calling thread, which becomes the loop thread: waits for at
    /// least one event (I/O, a timer, `execute` work) unless `waiting` is false, handles what is
    /// due, and returns. For in-process tests, which drive the loop step by step between feeding
    /// frames and checking replies; the daemon uses `run()`.
    func runOnce(waiting: Bool = true) {
        loopThread.store(Self.currentThread, ordering: .relaxed)
        uv_run(rawLoop, waiting ? UV_RUN_ONCE : UV_RUN_NOWAIT)
    }

    /// True once the loop has run to its end after `close()` and `uv_loop_close` found no handle
    /// open, so every handle's close callback has run and freed it.
    public var closedCleanly: Bool { closeResult == 0 }

    // MARK: Loop thread

    /// True on the loop thread (swift-nio's `inEventLoop`); thread-safe.
    public var isInLoop: Bool { loopThread.load(ordering: .relaxed) == Self.currentThread }

    /// Traps in debug builds when called off the loop thread; compiled out of release builds, as
    /// swift-nio's `assertInEventLoop` is. Every loop-confined entry point calls it.
    @inlinable
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isInLoop, "a loop-confined method was called off the event loop's thread", file: file, line: line)
    }

    private static var currentThread: UInt { UInt(pthread_self()) }

    /// Queues `work` to run on the loop thread; thread-safe. Returns false once the loop is closing.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        waker.enqueue(work)
    }

    /// Closes the loop's own handles so that `run()` returns once the caller's handles are closed too.
    ///
    /// Runs work already queued through `execute` first; later `execute` calls return false.
    public func close() {
        assertInLoop()
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
        assertInLoop()
        let deadline = Microseconds.monotonic() + max(0, micros)
        let id = timers.insert(deadline: deadline, action)
        armTimer()
        return TimerToken(id: id)
    }

    /// Cancels a scheduled action; a no-op when it already ran.
    public func cancelTimer(_ token: TimerToken) {
        assertInLoop()
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
        assertInLoop()
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
