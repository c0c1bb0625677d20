import BrokerModel
import BrokerWire
import Foundation
import Synchronization
import Testing
@testable import HealthBrokerClient

/// The solo call's hand-off (`ReplySlot`): the caller waits for the reply briefly on its own thread,
/// then suspends; exactly one side resumes it, whenever the reply arrives. And the adaptive budget
/// (`ReplySpin`) that decides how long.
@Suite("Solo call spin")
struct ReplySpinTests {
    static let reply = CallEvent.response(ProtoFrames.pong(PingResponse(payload: [4, 2])))

    /// Runs `body` inside a continuation's body, on a thread of its own executor (so a spin never
    /// holds a cooperative thread), and returns what the continuation was resumed with.
    static func slotWait(_ body: @escaping @Sendable (ReplySlot) -> Void) async throws -> CallEvent {
        let own = try ClientLoop()
        return await Task(executorPreference: own) {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                body(ReplySlot(continuation))
            }
        }.value
    }

    static func deliver(_ slot: ReplySlot, _ event: CallEvent, afterMilliseconds delay: UInt32) {
        Thread {
            usleep(delay * 1_000)
            slot.deliver(event)
        }.start()
    }

    // MARK: ReplySlot

    @Test func aReplyDeliveredBeforeTheSpinIsTakenAtOnce() async throws {
        let taken = Shared<Int64?>(nil)
        let event = try await Self.slotWait { slot in
            slot.deliver(Self.reply)
            let start = ReplySpin.now()
            taken.withLock { $0 = slot.spin(until: start + 5_000_000_000).map { $0 - start } }
        }
        #expect(event == Self.reply)
        let waited = try #require(taken.current, "the spinner took the reply")
        #expect(waited < 1_000_000_000, "it did not wait for the window's end")
    }

    @Test func aReplyDeliveredDuringTheSpinIsTakenByTheSpinner() async throws {
        let taken = Shared<Int64?>(nil)
        let event = try await Self.slotWait { slot in
            Self.deliver(slot, Self.reply, afterMilliseconds: 5)
            let start = ReplySpin.now()
            taken.withLock { $0 = slot.spin(until: start + 20_000_000_000).map { $0 - start } }
        }
        #expect(event == Self.reply)
        let waited = try #require(taken.current, "the spinner took the reply")
        #expect(waited >= 4_000_000, "it waited for the reply")
        #expect(waited < 15_000_000_000, "and not for the window's end")
    }

    @Test func aReplyAfterTheWindowResumesTheParkedTask() async throws {
        let parked = Shared(false)
        let event = try await Self.slotWait { slot in
            let start = ReplySpin.now()
            let taken = slot.spin(until: start + 200_000)
            let spun = ReplySpin.now() - start
            parked.withLock { $0 = taken == nil && spun >= 200_000 }
            Self.deliver(slot, .failure(.callCancelled), afterMilliseconds: 30)
        }
        #expect(parked.current, "the spin ended at its deadline and parked")
        #expect(event == .failure(.callCancelled), "the deliverer resumed the parked task with its event")
    }

    /// Replies land just before, at and just after the end of short windows, from another thread:
    /// each wait ends once, with its own event, whichever side resumes.
    @Test func racesAtTheWindowsEdgeResumeOnceWithTheRightEvent() async throws {
        let own = try ClientLoop()
        let deliverers = DispatchQueue(label: "reply spin deliverer")
        var byTheSpinner = 0
        var parked = 0
        for round in 0..<3_000 {
            let expected = CallEvent.response(ProtoFrames.pong(PingResponse(payload: [UInt8(truncatingIfNeeded: round)], sequence: UInt64(round))))
            let taken = Shared<Int64?>(nil)
            let event = await Task(executorPreference: own) {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<CallEvent, Never>) in
                    let slot = ReplySlot(continuation)
                    let window = Int64(round % 40) * 1_000  // 0–39 µs
                    if window == 0 {
                        // Nothing delivered yet: the spin must park, and the later delivery resume it.
                        taken.withLock { $0 = slot.spin(until: ReplySpin.now()) }
                        deliverers.async { slot.deliver(expected) }
                    } else {
                        deliverers.async { slot.deliver(expected) }
                        taken.withLock { $0 = slot.spin(until: ReplySpin.now() + window) }
                    }
                }
            }.value
            #expect(event == expected, "round \(round)")
            if taken.current == nil { parked += 1 } else { byTheSpinner += 1 }
        }
        #expect(byTheSpinner + parked == 3_000)
        #expect(parked >= 75, "every zero window (one round in 40) parks before its reply")
    }

    // MARK: ReplySpin

    @Test func theBudgetFollowsTheMedianWaitAndStopsForSlowCalls() {
        let spin = ReplySpin()
        #expect(spin.budgetNanos == 0, "nothing learnt: no spin")
        for _ in 0..<50 { spin.record(waitedNanos: 20_000, takenBySpin: false) }
        guard ReplySpin.hasSpareCPU else { return }
        #expect(spin.budgetNanos == 40_000, "twice the median")
        spin.record(waitedNanos: 5_000_000, takenBySpin: false)
        #expect(spin.budgetNanos > 0, "one slow call does not switch spinning off")
        for _ in 0..<200 { spin.record(waitedNanos: 2_000_000, takenBySpin: false) }
        #expect(spin.budgetNanos == 0, "calls that take milliseconds are not spun for")
        for _ in 0..<400 { spin.record(waitedNanos: 3_000, takenBySpin: true) }
        #expect(spin.budgetNanos == ReplySpin.minBudgetNanos, "quick again: spinning comes back, at its floor")
        #expect(spin.soloCalls.load(ordering: .relaxed) == 651)
        #expect(spin.takenBySpin.load(ordering: .relaxed) == 400)
        spin.forcedBudgetNanos.store(1, ordering: .relaxed)
        #expect(spin.budgetNanos == 1)
    }

    @Test func aCallWithOthersInFlightStopsSpinningUntilCallsAreAloneAgain() {
        let spin = ReplySpin()
        for _ in 0..<20 { spin.record(waitedNanos: 15_000, takenBySpin: true) }
        guard ReplySpin.hasSpareCPU else { return }
        #expect(spin.budgetNanos == 30_000)
        spin.noteShared()
        #expect(spin.budgetNanos == 0, "several calls were in flight just now")
        for _ in 0..<(ReplySpin.soloStreakToSpin - 1) { spin.record(waitedNanos: 15_000, takenBySpin: false) }
        #expect(spin.budgetNanos == 0)
        spin.record(waitedNanos: 15_000, takenBySpin: false)
        #expect(spin.budgetNanos == 30_000, "a streak of solo calls turns it back on")
    }
}

/// The spin through a connection: a socketpair peer answers when the test says.
@Suite("Solo call spin through a connection", .enabled(if: ReplySpin.hasSpareCPU))
struct ReplySpinConnectionTests {
    static func ping(_ payload: [UInt8]) -> Proto.Call.Request { ProtoFrames.ping(payload) }

    /// Echoes the next `count` pings on a thread of its own, `delay` ms after reading them.
    static func answer(_ peer: SocketPairPeer, count: Int = 1, afterMilliseconds delay: UInt32 = 0, reversed: Bool = false) {
        Thread {
            var frames: [ClientFrame] = []
            while frames.count < count, let more = peer.blockingFrames(count - frames.count, timeout: .seconds(30)), !more.isEmpty {
                frames += more
            }
            if delay > 0 { usleep(delay * 1_000) }
            peer.echoPings(in: reversed ? frames.reversed() : frames)
        }.start()
    }

    /// Runs `body` in a task on a thread of its own: a test that holds a spin open for seconds must
    /// not hold a cooperative thread (the parallel suite has two).
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () async -> T) async throws -> T {
        let own = try ClientLoop()
        return await Task(executorPreference: own, operation: body).value
    }

    static func counts(_ connection: BrokerConnection) -> (solo: Int, spun: Int) {
        let spin = connection.currentCore.replySpin
        return (spin.soloCalls.load(ordering: .relaxed), spin.takenBySpin.load(ordering: .relaxed))
    }

    @Test func aReplyDuringTheSpinIsTakenWithoutSuspending() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(20_000_000_000)
        Self.answer(peer, afterMilliseconds: 10)
        let reply = try await Self.onOwnThread { try? await connection.unary(Self.ping([1, 2, 3]), timeout: .seconds(30)) }
        #expect(reply == ProtoFrames.pong(PingResponse(payload: [1, 2, 3])))
        #expect(Self.counts(connection) == (1, 1), "the only call in flight spun and took its reply")
        #expect(connection.pendingCallCount == 0)
    }

    @Test func aReplyAfterTheWindowResumesTheSuspendedCall() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(100_000)
        Self.answer(peer, afterMilliseconds: 50)
        let reply = try await connection.unary(Self.ping([9]), timeout: .seconds(30))
        #expect(reply == ProtoFrames.pong(PingResponse(payload: [9])))
        #expect(Self.counts(connection) == (1, 0), "the spin gave up and the call suspended")
        let typical = connection.currentCore.replySpin.typicalNanos
        #expect(typical >= 40_000_000, "the wait learnt is the whole wait, not the window")
        connection.currentCore.replySpin.forceOn(-1)
        #expect(connection.currentCore.replySpin.budgetNanos == 0, "a 50 ms call is not worth spinning for")
    }

    @Test func cancellingDuringTheSpinEndsTheCallAtOnceAndTellsTheBroker() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(60_000_000_000)
        let own = try ClientLoop()
        let call = Task(executorPreference: own) { await failure { () async throws(BrokerError) in try await connection.unary(Self.ping([5]), timeout: nil) } }
        let frames = try #require(await peer.frames(1))
        #expect(frames.map(\.callID) == [1])
        // The caller is spinning now (or about to): a 60 s window, so only cancellation ends it.
        #expect(await waitUntil(timeout: .seconds(10)) { connection.currentCore.table.withLock { $0.count } == 1 })
        let began = ContinuousClock.now
        call.cancel()
        #expect(await call.value?.code == .cancelled)
        #expect(ContinuousClock.now - began < .seconds(10), "cancellation ended the spin")
        #expect(try #require(await peer.frames(1)) == [.cancel(callID: 1)])
        #expect(Self.counts(connection).solo == 1)
        // A late reply to the cancelled call is ignored; the next call works.
        connection.currentCore.replySpin.forceOn(1_000_000)
        peer.echoPings(in: frames)
        Self.answer(peer)
        #expect(try await connection.unary(Self.ping([6]), timeout: .seconds(30)) == ProtoFrames.pong(PingResponse(payload: [6])))
        #expect(connection.pendingCallCount == 0)
    }

    /// Sixteen callers on one thread, the peer answering only once it has all their frames (in
    /// reverse order): only a caller that was alone when it began to wait may spin.
    @Test func callsWithOthersInFlightNeverSpin() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        // One thread for all the callers: a 300 ms window, so a first caller alone on the
        // connection may spin a while, then lets the others run.
        connection.currentCore.replySpin.forceOn(300_000_000)
        let own = try ClientLoop()
        let calls = 16
        Self.answer(peer, count: calls, reversed: true)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<calls {
                group.addTask(executorPreference: own) {
                    let payload = [UInt8(index), 7]
                    return (try? await connection.unary(Self.ping(payload), timeout: .seconds(60))) == ProtoFrames.pong(PingResponse(payload: payload))
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: calls))
        #expect(Self.counts(connection).solo <= 1, "only a call that was alone when it waited spun")
        #expect(connection.pendingCallCount == 0)
    }

    @Test func aCallOnTheConnectionsOwnThreadNeverSpins() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(60_000_000_000)
        Self.answer(peer)
        let began = ContinuousClock.now
        let reply = await Task(executorPreference: connection.loop) {
            try? await connection.unary(Self.ping([3]), timeout: .seconds(30))
        }.value
        #expect(reply == ProtoFrames.pong(PingResponse(payload: [3])))
        #expect(ContinuousClock.now - began < .seconds(30), "the loop's thread read its reply")
        #expect(Self.counts(connection) == (0, 0))
    }

    @Test func aDeadlineDuringTheSpinEndsTheCall() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(60_000_000_000)
        let began = ContinuousClock.now
        let error = try await Self.onOwnThread { await failure { () async throws(BrokerError) in try await connection.unary(Self.ping([8]), timeout: .milliseconds(20)) } }
        #expect(error?.code == .deadlineExceeded)
        #expect(ContinuousClock.now - began < .seconds(20), "the loop's deadline reached the spinning caller")
        #expect(Self.counts(connection) == (1, 1))
    }

    @Test func closingDuringTheSpinFailsTheCall() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        connection.currentCore.replySpin.forceOn(60_000_000_000)
        let own = try ClientLoop()
        let call = Task(executorPreference: own) { await failure { () async throws(BrokerError) in try await connection.unary(Self.ping([8]), timeout: nil) } }
        _ = try #require(await peer.frames(1))
        connection.close()
        #expect(await call.value?.code == .unavailable)
        #expect(Self.counts(connection).solo == 1)
    }

    @Test(.enabled(if: !ReplySpin.enabledByEnvironment, "HEALTHBROKER_CLIENT_SPIN=1 turns it on"))
    func spinningIsOffByDefault() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        Self.answer(peer)
        #expect(try await connection.unary(Self.ping([1]), timeout: .seconds(30)) == ProtoFrames.pong(PingResponse(payload: [1])))
        #expect(Self.counts(connection) == (0, 0))
    }

    @Test func theBudgetAdaptsToAQuickPeer() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let spin = connection.currentCore.replySpin
        spin.forceOn(-1)
        for round in 0..<40 {
            Self.answer(peer)
            #expect(try await connection.unary(Self.ping([UInt8(round)]), timeout: .seconds(30)) == ProtoFrames.pong(PingResponse(payload: [UInt8(round)])))
        }
        #expect(Self.counts(connection).solo == 40, "every call was alone")
        #expect(spin.typicalNanos > 0)
        // The peer here is a fresh thread per call (far slower than a broker), so whether it is
        // worth spinning for depends on the machine; the budget is either off or within its bounds.
        let budget = spin.budgetNanos
        #expect(budget == 0 || (ReplySpin.minBudgetNanos...ReplySpin.maxBudgetNanos).contains(budget))
    }
}

extension ReplySpin {
    /// Turns spinning on for this connection with a fixed budget (ns; -1: the adaptive one).
    func forceOn(_ budget: Int64) {
        enabled.store(true, ordering: .relaxed)
        forcedBudgetNanos.store(budget, ordering: .relaxed)
    }
}
