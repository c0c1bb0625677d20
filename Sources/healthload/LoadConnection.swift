#if canImport(Glibc)
import Glibc
#endif

/// One app connection under load: its socket, its calls in flight and its byte buffers.
///
/// Confinement: built by the runner, then touched only by its worker's thread until that worker has
/// finished; the runner closes it afterwards. Closed loop, it keeps `depth` calls in flight until the
/// measured window ends; open loop, it sends on its `OpenLoopSchedule` with at most `depth` in flight.
final class LoadConnection: @unchecked Sendable {
    /// Read buffer size (grown when a single frame is larger).
    static let readChunk = 256 * 1024

    /// The connection's number (0-based).
    let index: Int
    /// The socket, non-blocking after Hello.
    let fd: Int32
    /// The phases of the run.
    let window: MeasurementWindow
    /// Calls in flight.
    var slots: CallSlots
    /// Templates by operation index (nil: not in the mix).
    var templates: [CallTemplate?]
    /// The operation order (operation indices), repeated.
    let cycle: [UInt8]
    /// The next position in `cycle`.
    var cyclePosition: Int
    /// Open loop: the intended send times; nil: closed loop.
    var schedule: OpenLoopSchedule?
    /// Open loop: the calls the schedule intends inside the measured window.
    let scheduledMeasuredCalls: UInt64
    /// Measured calls sent so far.
    var measuredStarted: UInt64 = 0
    /// Counter stamped into saved samples' uuids.
    var saveCounter: UInt64 = 0
    /// Full reply checks, when asked for.
    let verifier: ReplyVerifier?

    /// Bytes read and not yet handled live in `input[inputStart..<inputEnd]`.
    var input: [UInt8]
    /// The first unhandled byte of `input`.
    var inputStart = 0
    /// One past the last byte read into `input`.
    var inputEnd = 0
    /// Frames to write; `output[outputOffset...]` is still unwritten.
    var output: [UInt8] = []
    /// The first unwritten byte of `output`.
    var outputOffset = 0
    /// False once the socket failed or the broker closed it.
    private(set) var isOpen = true
    /// Why it closed, if it did.
    private(set) var closeReason: String?

    /// Wraps a connected socket that has had its Hello.
    init(index: Int, fd: Int32, window: MeasurementWindow, depth: Int, templates: [CallTemplate?], cycle: [LoadOperation],
         cycleOffset: Int, schedule: OpenLoopSchedule?, verifier: ReplyVerifier?) {
        self.index = index
        self.fd = fd
        self.window = window
        slots = CallSlots(capacity: depth)
        self.templates = templates
        self.cycle = cycle.map { UInt8($0.index) }
        cyclePosition = cycle.isEmpty ? 0 : cycleOffset % cycle.count
        self.schedule = schedule
        if let schedule {
            let warmup = window.measureStart > 0 ? schedule.dueCount(now: window.measureStart - 1) : 0
            scheduledMeasuredCalls = schedule.totalCalls - min(warmup, schedule.totalCalls)
        } else {
            scheduledMeasuredCalls = 0
        }
        self.verifier = verifier
        input = [UInt8](repeating: 0, count: Self.readChunk)
        output.reserveCapacity(64 * 1024)
    }

    deinit {
        close(fd)
    }

    /// Whether written bytes are waiting for the socket.
    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Whether this connection has nothing more to do at `now` (`stopping`: no new calls start).
    func isFinished(now: UInt64, stopping: Bool) -> Bool {
        guard isOpen else { return true }
        guard slots.inFlight == 0 && !hasPendingOutput else { return false }
        if stopping { return true }
        if let schedule { return schedule.nextIntendedTime == nil }
        return now >= window.measureEnd
    }

    /// Open loop: when the next call is due, if a slot is free for it.
    var nextDueTime: UInt64? {
        guard isOpen, slots.hasFree else { return nil }
        return schedule?.nextIntendedTime
    }

    /// Starts every call that is due: closed loop, one per free slot until the window ends; open loop,
    /// each scheduled call whose time has come, while slots are free.
    func startCalls(now: UInt64, stopping: Bool, tally: inout StatsTally) {
        guard isOpen, !stopping else { return }
        if schedule != nil {
            while slots.hasFree, let intended = schedule!.takeDue(now: now) {
                start(at: intended, tally: &tally)
            }
        } else {
            guard now < window.measureEnd else { return }
            while slots.hasFree { start(at: now, tally: &tally) }
        }
    }

    /// Sends the next operation of the cycle as a call that started at `start`.
    @inline(__always)
    private func start(at start: UInt64, tally: inout StatsTally) {
        let operation = cycle[cyclePosition]
        cyclePosition += 1
        if cyclePosition == cycle.count { cyclePosition = 0 }
        let measured = window.isMeasured(start)
        let (_, callID) = slots.open(operation: operation, start: start, measured: measured)
        let counter: UInt64
        if operation == UInt8(LoadOperation.save.index) {
            saveCounter += 1
            counter = saveCounter
        } else {
            counter = 0
        }
        let bytes = templates[Int(operation)]!.appendFrame(callID: callID, counter: counter, to: &output)
        if measured {
            measuredStarted += 1
            tally.operations[Int(operation)].started += 1
            tally.operations[Int(operation)].bytesSent += UInt64(bytes)
        }
    }

    /// Writes pending output until done or the socket is full; false when the socket failed.
    func flush() -> Bool {
        guard isOpen else { return false }
        while outputOffset < output.count {
            let written = output.withUnsafeBytes { write(fd, $0.baseAddress! + outputOffset, $0.count - outputOffset) }
            if written > 0 {
                outputOffset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                markClosed("write failed: errno \(errno)")
                return false
            }
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        } else if outputOffset >= 1 << 20 {
            output.removeSubrange(0..<outputOffset)
            outputOffset = 0
        }
        return true
    }

    /// What one read did.
    enum ReadOutcome {
        /// Bytes arrived; more may be waiting when the buffer filled.
        case bytes(filledBuffer: Bool)
        /// Nothing to read now.
        case wouldBlock
        /// The broker closed the connection, or the read failed.
        case closed
    }

    /// Reads once into the input buffer.
    func readOnce() -> ReadOutcome {
        guard isOpen else { return .closed }
        if inputStart == inputEnd {
            inputStart = 0
            inputEnd = 0
        } else if input.count - inputEnd < Self.readChunk / 4 {
            makeRoom()
        }
        let room = input.count - inputEnd
        let count = input.withUnsafeMutableBytes { read(fd, $0.baseAddress! + inputEnd, room) }
        if count > 0 {
            inputEnd += count
            return .bytes(filledBuffer: count == room)
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        markClosed(count == 0 ? "the broker closed the connection" : "read failed: errno \(errno)")
        return .closed
    }

    /// Moves unread bytes to the front, growing the buffer when one frame needs more room.
    private func makeRoom() {
        let pending = inputEnd - inputStart
        if inputStart > 0 {
            input.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                memmove(base, base + inputStart, pending)
            }
            inputStart = 0
            inputEnd = pending
        }
        var needed = pending + Self.readChunk / 4
        if pending >= 5 {
            let length = Int(input[1]) << 24 | Int(input[2]) << 16 | Int(input[3]) << 8 | Int(input[4])
            needed = max(needed, 5 + length)
        }
        if needed > input.count {
            input.append(contentsOf: repeatElement(0, count: needed - input.count + Self.readChunk))
        }
    }

    /// Records the connection as closed (the caller fails what is in flight).
    func markClosed(_ reason: String) {
        guard isOpen else { return }
        isOpen = false
        closeReason = reason
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Fails every call in flight with `code` (and, at the end, counts the open loop's unsent calls).
    func failInFlight(_ code: Int32, tally: inout StatsTally) {
        for slot in slots.activeSlots {
            let operation = Int(slots.operations[slot])
            if slots.measured[slot] { tally.operations[operation].recordFailure(code) }
            tally.endedAnyPhase += 1
            tally.failedAnyPhase += 1
            slots.close(slot)
        }
    }

    /// Open loop: counts the measured calls that were due but never went out.
    func countUnsent(tally: inout StatsTally) {
        guard schedule != nil, scheduledMeasuredCalls > measuredStarted else { return }
        tally.unsent += scheduledMeasuredCalls - measuredStarted
    }
}
