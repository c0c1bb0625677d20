import Foundation

/// One thread driving a share of the connections: start calls, write, wait, read, count, repeat.
///
/// Each connection's replies are handled right after its read, and the calls that replace them
/// (closed loop) go out in the same write, so a busy connection costs one read and one write per
/// batch of replies. The thread ends when every connection is finished (the window is over and
/// nothing is in flight), at the drain deadline (what is left in flight counts as client timeouts),
/// or soon after the stop flag is raised.
final class LoadWorker: @unchecked Sendable {
    /// The longest single wait, so the stop flag is noticed.
    static let maxWaitNanos: UInt64 = 50_000_000
    /// How long calls in flight may take to finish after the stop flag.
    static let stopDrainNanos: UInt64 = 2_000_000_000

    /// The connections; touched only by this worker's thread while it runs.
    let connections: [LoadConnection]
    /// The phases of the run.
    let window: MeasurementWindow
    /// What this worker counted.
    let stats = WorkerStats()
    private let stop: StopFlag
    private let finishLock = NSCondition()
    private var finished = false

    /// A worker for `connections`.
    init(connections: [LoadConnection], window: MeasurementWindow, stop: StopFlag) {
        self.connections = connections
        self.window = window
        self.stop = stop
    }

    /// Starts the worker's thread.
    func start(name: String) {
        let thread = Thread { [self] in
            run()
            finishLock.lock()
            finished = true
            finishLock.broadcast()
            finishLock.unlock()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Whether the thread has ended.
    var isFinished: Bool {
        finishLock.lock()
        defer { finishLock.unlock() }
        return finished
    }

    /// Blocks until the thread has ended.
    func waitUntilFinished() {
        finishLock.lock()
        while !finished { finishLock.wait() }
        finishLock.unlock()
    }

    /// The loop (runs on the worker's thread).
    func run() {
        var pollSet = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        while true {
            var now = MonotonicClock.now()
            let stopping = stop.isRaised
            let deadline = stopping ? min(window.drainDeadline, (stop.raisedAt ?? now) + Self.stopDrainNanos) : window.drainDeadline
            if now >= deadline {
                giveUp()
                return
            }
            stats.update { tally in
                for connection in connections { connection.startCalls(now: now, stopping: stopping, tally: &tally) }
            }
            var failed = false
            for connection in connections where connection.hasPendingOutput {
                if !connection.flush() { failed = true }
            }
            if failed { failClosed() }
            if connections.allSatisfy({ $0.isFinished(now: now, stopping: stopping) }) {
                finish()
                return
            }

            var wake = min(deadline, now + Self.maxWaitNanos)
            for (index, connection) in connections.enumerated() {
                pollSet[index].fd = connection.isOpen ? connection.fd : -1
                pollSet[index].events = Int16(POLLIN) | (connection.hasPendingOutput ? Int16(POLLOUT) : 0)
                pollSet[index].revents = 0
                if let due = connection.nextDueTime { wake = min(wake, due) }
            }
            if wake > now {
                let ready = PreciseWait.poll(&pollSet, nanoseconds: wake - now)
                if ready <= 0 { continue }
            } else {
                // Calls are due already: only look for what is ready, without waiting.
                if PreciseWait.poll(&pollSet, nanoseconds: 0) <= 0 { continue }
            }

            for (index, connection) in connections.enumerated() where pollSet[index].revents != 0 {
                let events = pollSet[index].revents
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    readAll(connection, stopping: stopping)
                }
                if connection.isOpen && connection.hasPendingOutput && !connection.flush() {
                    failClosed()
                }
                now = MonotonicClock.now()
            }
        }
    }

    /// Reads what `connection` has, handles the replies, starts their replacements and writes them.
    private func readAll(_ connection: LoadConnection, stopping: Bool) {
        while true {
            let outcome = connection.readOnce()
            let now = MonotonicClock.now()
            switch outcome {
            case .wouldBlock:
                return
            case .closed:
                stats.update { tally in
                    connection.consumeFrames(now: now, tally: &tally)
                    connection.failInFlight(CallOutcome.connectionClosed, tally: &tally)
                }
                return
            case .bytes(let filledBuffer):
                stats.update { tally in
                    connection.consumeFrames(now: now, tally: &tally)
                    connection.startCalls(now: now, stopping: stopping, tally: &tally)
                }
                if connection.hasPendingOutput && !connection.flush() {
                    failClosed()
                    return
                }
                if !filledBuffer { return }
            }
        }
    }

    /// Fails the calls in flight on connections that closed.
    private func failClosed() {
        stats.update { tally in
            for connection in connections where !connection.isOpen {
                connection.failInFlight(CallOutcome.connectionClosed, tally: &tally)
            }
        }
    }

    /// The drain deadline passed: what is still in flight is a client timeout.
    private func giveUp() {
        stats.update { tally in
            for connection in connections {
                connection.failInFlight(connection.isOpen ? CallOutcome.clientTimeout : CallOutcome.connectionClosed, tally: &tally)
                connection.countUnsent(tally: &tally)
            }
        }
    }

    /// Every connection is finished.
    private func finish() {
        stats.update { tally in
            for connection in connections { connection.countUnsent(tally: &tally) }
        }
    }
}
