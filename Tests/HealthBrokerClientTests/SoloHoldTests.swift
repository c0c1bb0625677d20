#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire
import Foundation
import Synchronization
import Testing
@testable import HealthBrokerClient

/// A solo unary call's caller may read the socket itself for its reply (a hold: the call table's
/// `reader` is the caller). These tests make a hold happen by construction (the call is the only
/// one, the token is idle, the budget is forced) and act from inside it through the test hook,
/// which runs on the holder's thread after it became the reader and before it polls; so what they
/// check never depends on how fast anything runs.
@Suite("Solo calls reading their own replies")
struct SoloHoldTests {
    /// The peer, and its connection's core with holds forced on and nobody reading.
    static func idlePeer() async throws -> (SocketPairPeer, ConnectionCore) {
        let peer = try SocketPairPeer()
        let core = peer.connection.currentCore
        core.holdBudget.enabled.store(true, ordering: .relaxed)
        core.holdBudget.forcedNanos.store(50_000, ordering: .relaxed)
        try await untilNobodyReads(peer, core)
        return (peer, core)
    }

    /// Makes calls answered through the loop (which reads at first) until nobody reads: the loop
    /// stops once a read of its leaves nothing in flight and it resumed the caller. Not always the
    /// first time: a reply read before its caller attached is taken by the caller itself, and the
    /// loop reads on until its next read (a later call's).
    static func untilNobodyReads(_ peer: SocketPairPeer, _ core: ConnectionCore) async throws {
        core.holdHookSet.store(false, ordering: .releasing)
        for attempt in 0..<20 where core.readerToken.current != .idle {
            let payload = [UInt8(attempt)]
            let call = Task { try? await peer.connection.unary(ProtoFrames.ping(payload), timeout: .seconds(60)) }
            // Every call frame that comes is answered, until this attempt's (so an earlier attempt's
            // frame that came late cannot leave this one unanswered).
            var answered = false
            while !answered {
                let frames = try #require(await peer.frames(1, timeout: Self.patience))
                try #require(!frames.isEmpty, "no call came")
                peer.echoPings(in: frames)
                answered = frames.contains { frame in
                    if case .call(let sent) = frame, case .ping(let ping) = sent.request { ping.payload == payload } else { false }
                }
            }
            #expect(await call.value == ProtoFrames.pong(PingResponse(payload: payload)))
            _ = await waitUntil(timeout: .seconds(2)) { core.readerToken.current == .idle }
        }
        try #require(core.readerToken.current == .idle, "the loop kept reading with nothing in flight")
    }

    /// How long the peer waits for a call's frame: the call's task may not run for tens of seconds
    /// in the full parallel suite on two cores (CPU-bound suites hold the pool), and a frame missed
    /// here would leave its call unanswered.
    static let patience: Duration = .seconds(300)

    /// The deadline of a call that only a hold's hook answers (or ends): if the call did not hold,
    /// the test fails when it passes instead of waiting for ever. (The first version of this suite
    /// had none, and once a call did not hold, the test filter never finished.)
    static let hookAnswered: Duration = .seconds(60)

    /// Installs `hook` to run inside the next hold.
    static func onHold(_ core: ConnectionCore, _ hook: @escaping @Sendable (UInt64) -> Void) {
        core.holdHook.withLock { $0 = hook }
        core.holdHookSet.store(true, ordering: .releasing)
    }

    static func pong(_ id: UInt64, _ payload: [UInt8]) -> ServerFrame {
        ServerFrame(callID: id, response: .ping(PingResponse(payload: payload)))
    }

    static func error(of task: Task<Proto.ServerFrame.Response, any Error>) async -> BrokerError? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return error as? BrokerError
        }
    }

    @Test func theHolderReadsItsOwnReplyAndHandsTheTokenBack() async throws {
        let (peer, core) = try await Self.idlePeer()
        let heldID = Shared<UInt64>(0)
        Self.onHold(core) { id in
            heldID.withLock { $0 = id }
            peer.send(Self.pong(id, [1]))
        }
        let reply = try await peer.connection.unary(ProtoFrames.ping([1]), timeout: Self.hookAnswered)
        #expect(reply == ProtoFrames.pong(PingResponse(payload: [1])))
        #expect(heldID.current != 0, "the call did not hold")
        #expect(core.readerToken.holds.load(ordering: .relaxed) == 1)
        #expect(core.holdBudget.takenInHold.load(ordering: .relaxed) == 1, "the reply was not taken in the hold")
        #expect(core.readerToken.current == .idle, "nothing is in flight: the holder gives the token to nobody")
        #expect(core.pendingCallCount == 0)
    }

    @Test func theHolderRoutesOtherCallsRepliesToTheirOwnWaiters() async throws {
        let (peer, core) = try await Self.idlePeer()
        let holder = Shared<UInt>(0)
        // Payload, and the thread that delivered it, per callback call.
        let delivered = Shared<[UInt64: ([UInt8], UInt)]>([:])
        Self.onHold(core) { id in
            holder.withLock { $0 = UInt(pthread_self()) }
            // Two more calls start while the token is held; their waiters are callbacks.
            var others: [UInt64] = []
            for payload: [UInt8] in [[2], [3]] {
                let before = Set(core.table.withLock { Array($0.unaryCalls.keys) })
                try? core.startUnary(ProtoFrames.ping(payload), timeout: nil, waiter: .callback { event in
                    guard case .response(.ping(let pong)) = event else { return }
                    let thread = UInt(pthread_self())
                    delivered.withLock { $0[UInt64(pong.payload.first ?? 0)] = (pong.payload, thread) }
                })
                others += Set(core.table.withLock { Array($0.unaryCalls.keys) }).subtracting(before)
            }
            guard others.count == 2 else { return }
            // Replies out of order: the later call's first, the holder's own in between.
            peer.send(Self.pong(others[1], [3]))
            peer.send(Self.pong(id, [1]))
            peer.send(Self.pong(others[0], [2]))
        }
        let reply = try await peer.connection.unary(ProtoFrames.ping([1]), timeout: Self.hookAnswered)
        #expect(reply == ProtoFrames.pong(PingResponse(payload: [1])), "the holder got another call's reply")
        #expect(await waitUntil { delivered.current.count == 2 })
        let byPayload = delivered.current
        #expect(byPayload[2]?.0 == [2])
        #expect(byPayload[3]?.0 == [3])
        let holderThread = holder.current
        #expect(holderThread != 0)
        #expect(byPayload[2]?.1 == holderThread && byPayload[3]?.1 == holderThread, "the other replies were not dispatched by the holder")
        #expect(core.holdBudget.takenInHold.load(ordering: .relaxed) == 1)
        #expect(core.pendingCallCount == 0)
        #expect(core.readerToken.current == .idle)
    }

    @Test func cancellingTheTaskDuringAHoldEndsTheCallAndTheConnectionGoesOn() async throws {
        let (peer, core) = try await Self.idlePeer()
        let connection = peer.connection
        Self.onHold(core) { _ in
            // The hook runs in the calling task: cancel it from inside its own hold.
            withUnsafeCurrentTask { $0?.cancel() }
        }
        let call = Task { try await connection.unary(ProtoFrames.ping([4]), timeout: Self.hookAnswered) }
        #expect(await Self.error(of: call)?.code == .cancelled)
        #expect(core.readerToken.holds.load(ordering: .relaxed) == 1)
        let frames = try #require(await peer.frames(2, timeout: Self.patience))
        guard case .call(let sent) = frames.first, case .cancel(let cancelled) = frames.last else {
            Issue.record("expected the call, then its Cancel: \(frames)")
            return
        }
        #expect(sent.callID == cancelled, "the Cancel names the held call")
        // The token went back: a next call (holding or not) gets its own reply.
        core.holdHookSet.store(false, ordering: .releasing)
        let next = Task { try await connection.unary(ProtoFrames.ping([5]), timeout: nil) }
        peer.echoPings(in: try #require(await peer.frames(1, timeout: Self.patience)))
        #expect(try await next.value == ProtoFrames.pong(PingResponse(payload: [5])))
        #expect(core.pendingCallCount == 0)
    }

    @Test func aDeadlineTheLoopExpiresDuringAHoldEndsTheCall() async throws {
        let (peer, core) = try await Self.idlePeer()
        let connection = peer.connection
        let expiredWhileHeld = Shared(false)
        Self.onHold(core) { id in
            // Wait (on this thread of its own) until the loop's thread has expired the call while
            // the token is held; the peer never answers.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let outcome = core.table.withLock { $0.unaryCalls[id]?.outcome }
                if outcome != nil {
                    expiredWhileHeld.withLock { $0 = core.readerToken.current == .held }
                    return
                }
                usleep(1_000)
            }
        }
        // A thread of its own for the caller: the hook blocks it until the deadline (~250 ms).
        let single = try ClientLoop()
        let call = Task(executorPreference: single) { try await connection.unary(ProtoFrames.ping([6]), timeout: .milliseconds(1)) }
        #expect(await Self.error(of: call)?.code == .deadlineExceeded)
        #expect(expiredWhileHeld.current, "the call was not expired during the hold")
        #expect(core.readerToken.current == .idle)
        #expect(core.pendingCallCount == 0)
    }

    @Test func closingTheConnectionDuringAHoldFailsTheCall() async throws {
        let (peer, core) = try await Self.idlePeer()
        let connection = peer.connection
        Self.onHold(core) { _ in connection.close() }
        let call = Task { try await connection.unary(ProtoFrames.ping([7]), timeout: Self.hookAnswered) }
        #expect(await Self.error(of: call)?.code == .unavailable)
        #expect(core.readerToken.current == .loop, "a closed connection's token goes back to the loop, which drops it")
        let later = Task { try await connection.unary(ProtoFrames.ping([8]), timeout: Self.hookAnswered) }
        #expect(await Self.error(of: later)?.code == .unavailable)
    }

    @Test func theBrokerHangingUpDuringAHoldIsReadByTheHolder() async throws {
        let (peer, core) = try await Self.idlePeer()
        let connection = peer.connection
        let status = Status(code: .unauthenticated, domain: .none, message: "gone")
        Self.onHold(core) { _ in
            // A connection-level error, then the hang-up: what a broker says as it drops an app.
            peer.send(ServerFrame(callID: 0, status: status))
            peer.hangUp()
        }
        let call = Task { try await connection.unary(ProtoFrames.ping([9]), timeout: Self.hookAnswered) }
        let error = await Self.error(of: call)
        #expect(error?.code == .unauthenticated, "\(String(describing: error))")
        #expect(core.closedError?.code == .unauthenticated)
        #expect(core.holdBudget.takenInHold.load(ordering: .relaxed) == 1)
    }

    @Test func aCallWhileATaskThisConnectionResumedIsStillQueuedDoesNotHold() async throws {
        let (peer, core) = try await Self.idlePeer()
        let connection = peer.connection
        // A task on an executor of its own, waiting for its call's reply.
        let single = try ClientLoop()
        let waiting = Task(executorPreference: single) { try await connection.unary(ProtoFrames.ping([1]), timeout: nil) }
        let first = try #require(await peer.frames(1, timeout: Self.patience))
        #expect(await waitUntil { core.table.withLock { $0.unaryCalls.values.contains { $0.waiter != nil } } })
        // Its executor's one thread is kept busy, so once resumed the task cannot run on yet.
        let release = DispatchSemaphore(value: 0)
        let blocking = Shared(false)
        let blocker = Task(executorPreference: single) {
            blocking.withLock { $0 = true }
            release.wait()
        }
        #expect(await waitUntil { blocking.current })
        peer.echoPings(in: first)
        #expect(await waitUntil { core.resumedTasks.load(ordering: .relaxed) == 1 && core.readerToken.current == .idle })
        // Solo by the call table, but a resumed task is queued: no hold; the loop reads the reply.
        let holdsBefore = core.readerToken.holds.load(ordering: .relaxed)
        let held = Shared(false)
        Self.onHold(core) { _ in held.withLock { $0 = true } }
        let second = Task { try await connection.unary(ProtoFrames.ping([2]), timeout: nil) }
        peer.echoPings(in: try #require(await peer.frames(1, timeout: Self.patience)))
        #expect(try await second.value == ProtoFrames.pong(PingResponse(payload: [2])))
        #expect(!held.current && core.readerToken.holds.load(ordering: .relaxed) == holdsBefore, "held while a resumed task was queued")
        // Once that task has run, a solo call holds again.
        release.signal()
        await blocker.value
        #expect(try await waiting.value == ProtoFrames.pong(PingResponse(payload: [1])))
        #expect(core.resumedTasks.load(ordering: .relaxed) == 0)
        // The loop stops reading after a read that leaves nothing in flight with at most one resumed
        // task queued; when the second reply came, two were (unless the second ran first): calls
        // answered with nothing queued let it stop.
        try await Self.untilNobodyReads(peer, core)
        Self.onHold(core) { id in
            held.withLock { $0 = true }
            peer.send(Self.pong(id, [3]))
        }
        #expect(try await connection.unary(ProtoFrames.ping([3]), timeout: Self.hookAnswered) == ProtoFrames.pong(PingResponse(payload: [3])))
        #expect(held.current, "a solo call with nothing queued did not hold")
    }

    @Test func manyCallersMixingHoldsAndWaitsEachGetTheirOwnReplies() async throws {
        let peer = try SocketPairPeer()
        let core = peer.connection.currentCore
        core.holdBudget.enabled.store(true, ordering: .relaxed)
        core.holdBudget.forcedNanos.store(50_000, ordering: .relaxed)
        let stop = Shared(false)
        // The broker: a thread of its own answering every ping with its payload.
        let broker = Thread {
            while !stop.current {
                if let frames = peer.blockingFrames(1, timeout: .milliseconds(20)) { peer.echoPings(in: frames) }
            }
        }
        broker.start()
        defer { stop.withLock { $0 = true } }
        let connection = peer.connection
        // Rounds of one caller alone (solo calls, which may hold) and of several at once.
        for round in 0..<20 {
            let callers = round % 2 == 0 ? 1 : 6
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        for index in 0..<20 {
                            let payload = [UInt8(round), UInt8(caller), UInt8(index)]
                            let reply = try await connection.unary(ProtoFrames.ping(payload), timeout: .seconds(60))
                            #expect(reply == ProtoFrames.pong(PingResponse(payload: payload)))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(core.pendingCallCount == 0)
        #expect(core.readerToken.current != .held)
    }
}
