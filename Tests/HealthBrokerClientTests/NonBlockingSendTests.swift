import BrokerModel
import BrokerWire
import Foundation
import Testing
@testable import HealthBrokerClient

/// Calls never hold a thread in `send(2)`: frames wait in the connection's outbox, written by its
/// loop as the socket takes them, in order. The broker here is the other end of a `socketpair` that
/// reads only when the test says so.
@Suite("Sending without blocking")
struct NonBlockingSendTests {
    static func ping(_ payload: [UInt8]) -> Proto.Call.Request { ProtoFrames.ping(payload) }

    /// A Save of at least 4 MiB.
    static func bigSave() throws -> Proto.Call.Request {
        let request = Proto.Call.Request.save(.with { $0.samples = (0..<48_000).map(SampleFixtures.step).map(\.proto) })
        var bytes: [UInt8] = []
        Proto.ClientFrame.appendFrame(call: .with { $0.callID = 1; $0.request = request }, to: &bytes)
        try #require(bytes.count >= 4 << 20)
        return request
    }

    @Test func aBigSaveToAPeerThatDoesNotReadLeavesTheCallingThreadFree() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let save = try Self.bigSave()
        // A one-thread executor: if the save's caller blocked its thread in send(2), the second task
        // could not run until the peer reads.
        let single = try ClientLoop()
        let saving = Task(executorPreference: single) { () -> Proto.ServerFrame.Response? in
            try? await connection.unary(save, timeout: nil)
        }
        let other = Task(executorPreference: single) { single.isCurrent }
        let otherRan = await Self.finishes(other, within: 10)
        #expect(otherRan, "the save's caller held the one thread")
        #expect(connection.currentCore.wantsWritable, "the save waits in the outbox, not in a thread")
        let frames = try #require(await peer.frames(1))
        guard case .call(let call) = frames.first else { Issue.record("no call: \(frames)"); return }
        #expect(call.request == .save((0..<48_000).map(SampleFixtures.step)), "the whole save arrived intact once the peer read")
        peer.send(ServerFrame(callID: call.callID, response: .save(saved: 48_000, unchanged: 0)))
        #expect(await saving.value == .save(.with { $0.saved = 48_000 }))
    }

    @Test func aCallerWhoseFrameDoesNotFitWaitsAsynchronouslyAndGoesInOrder() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let big = [UInt8](repeating: 0x5A, count: 3 << 20)
        let single = try ClientLoop()
        let first = Task(executorPreference: single) { try? await connection.unary(Self.ping(big), timeout: nil) }
        #expect(await waitUntil(timeout: .seconds(60)) { connection.currentCore.wantsWritable })
        // The outbox holds more than its bound now: the next call parks, suspended, not blocked.
        let second = Task(executorPreference: single) { try? await connection.unary(Self.ping([2]), timeout: nil) }
        #expect(await waitUntil(timeout: .seconds(60)) { connection.currentCore.outbox.withLock { $0.parkedCount } == 1 })
        let other = Task(executorPreference: single) { single.isCurrent }
        #expect(await Self.finishes(other, within: 10), "a parked caller held the one thread")
        let frames = try #require(await peer.frames(2))
        #expect(frames.map(\.callID) == [1, 2])
        peer.echoPings(in: frames)
        #expect(await first.value == ProtoFrames.pong(PingResponse(payload: big)))
        #expect(await second.value == ProtoFrames.pong(PingResponse(payload: [2])))
    }

    @Test func cancellingWhileTheSocketIsFullDoesNotBlockAndTheCancelFollowsItsCall() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let big = [UInt8](repeating: 0xC3, count: 3 << 20)
        let single = try ClientLoop()
        let stuck = Task(executorPreference: single) { await Self.error(of: connection, Self.ping(big)) }
        #expect(await waitUntil(timeout: .seconds(60)) { connection.currentCore.wantsWritable })
        let parked = Task(executorPreference: single) { await Self.error(of: connection, Self.ping([7])) }
        #expect(await waitUntil(timeout: .seconds(60)) { connection.currentCore.outbox.withLock { $0.parkedCount } == 1 })
        // Cancel both from a plain thread: neither cancellation handler may wait for the socket.
        let cancelled = await returnsPromptly {
            parked.cancel()
            stuck.cancel()
        }
        #expect(cancelled, "cancelling blocked while the socket was full")
        #expect(await Self.finishes(stuck, within: 10))
        #expect(await stuck.value?.code == .cancelled)
        #expect(await parked.value?.code == .cancelled)
        let later = Task { try? await connection.unary(Self.ping([9]), timeout: nil) }
        let frames = try #require(await peer.frames(3))
        // The parked call was withdrawn unsent; the big call's Cancel follows it; then the later call.
        #expect(frames.count == 3)
        guard frames.count == 3, case .call(let call) = frames[0], case .call(let next) = frames[2] else {
            Issue.record("frames: \(frames.map(\.callID))")
            return
        }
        #expect(call.callID == 1 && call.request == .ping(PingRequest(payload: big)))
        #expect(frames[1] == .cancel(callID: 1))
        #expect(next.callID == 3 && next.request == .ping(PingRequest(payload: [9])))
        peer.echoPings(in: [frames[2]])
        #expect(await later.value == ProtoFrames.pong(PingResponse(payload: [9])))
        #expect(connection.pendingCallCount == 0)
    }

    @Test func manyConcurrentCallsKeepEachConnectionsFrameOrder() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let tasks = 24
        let rounds = 12
        // Sizes from 1 byte to 300 KiB: the outbox fills, callers park, and frames are written in
        // pieces by callers and by the loop. Each payload says which task and round it is.
        let received = Shared<[ClientFrame]>([])
        // The peer answers until every call has ended, however late the calls start: in a full run
        // beside two CPU hogs the callers' tasks waited over 60 s for the pool, and a peer that gave
        // up after 60 s without a frame left them all to their deadlines.
        let callsEnded = Shared(false)
        let answering = Thread {
            var seen = 0
            while seen < tasks * rounds, !callsEnded.current, let frames = peer.blockingFrames(1, timeout: .milliseconds(200)) {
                guard !frames.isEmpty else { continue }
                seen += frames.count
                peer.echoPings(in: frames)
                received.withLock { $0.append(contentsOf: frames) }
                if seen % 16 == 0 { usleep(2_000) }  // a slow reader, so the socket keeps filling
            }
        }
        answering.start()
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for round in 0..<rounds {
                        let size = [1, 40, 4_096, 70_000, 300_000][(task + round) % 5]
                        var payload = [UInt8](repeating: UInt8(truncatingIfNeeded: task &* 31 &+ round), count: size)
                        payload[0] = UInt8(task)
                        if size > 1 { payload[1] = UInt8(round) }
                        guard (try? await connection.unary(Self.ping(payload), timeout: .seconds(60))) == ProtoFrames.pong(PingResponse(payload: payload)) else { return false }
                    }
                    return true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        callsEnded.withLock { $0 = true }
        #expect(results == Array(repeating: true, count: tasks))
        let frames = received.current
        #expect(frames.count == tasks * rounds, "every frame decoded whole: none interleaved")
        var lastRound: [Int: Int] = [:]
        var ids: Set<UInt64> = []
        for case .call(let call) in frames {
            #expect(ids.insert(call.callID).inserted)
            guard case .ping(let ping) = call.request else { continue }
            let task = Int(ping.payload[0])
            let round = ping.payload.count > 1 ? Int(ping.payload[1]) : (lastRound[task] ?? -1) + 1
            #expect(round == (lastRound[task] ?? -1) + 1, "task \(task)'s calls arrived in order")
            lastRound[task] = round
        }
    }

    @Test func completionCallsFromOneThreadGoOutInTheOrderMadeEvenWhenTheyPark() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let count = 40
        let done = Shared(0)
        // Each call is 100 KiB: past the outbox's bound after a few, so most park without a task
        // to wait for them; they must still leave in the order they were made.
        let payloads = (0..<count).map { [UInt8](repeating: UInt8($0), count: 100 << 10) }
        let made = await returnsPromptly {
            for payload in payloads {
                connection.unary(Self.ping(payload), timeout: nil) { _ in done.withLock { $0 += 1 } }
            }
        }
        #expect(made, "completion calls blocked on a full socket")
        #expect(connection.currentCore.outbox.withLock { $0.parkedCount } > 0, "some calls had to park")
        var frames: [ClientFrame] = []
        while frames.count < count, let more = await peer.frames(1), !more.isEmpty {
            frames += more
            peer.echoPings(in: more)
        }
        #expect(frames.map(\.callID) == (1...UInt64(count)).map { $0 })
        #expect(frames.map { frame -> UInt8? in
            if case .call(let call) = frame, case .ping(let ping) = call.request { ping.payload.first } else { nil }
        } == (0..<count).map { UInt8($0) })
        #expect(await waitUntil(timeout: .seconds(20)) { done.current == count })
    }

    @Test func aParkedCallWhoseDeadlinePassesFailsWithoutBeingSent() async throws {
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let big = [UInt8](repeating: 1, count: 3 << 20)
        let stuck = Task { await Self.error(of: connection, Self.ping(big)) }
        // The big call must be the one holding the socket before the small one is made (in the full
        // parallel suite on two cores its task has waited many seconds to start).
        try #require(await waitUntil(timeout: .seconds(60)) { connection.currentCore.wantsWritable })
        let started = ContinuousClock.now
        let error = await Self.error(of: connection, Self.ping([3]), timeout: .milliseconds(50))
        #expect(error?.code == .deadlineExceeded)
        #expect(ContinuousClock.now - started < .seconds(5), "the parked call waited past its deadline")
        #expect(connection.currentCore.outbox.withLock { $0.parkedCount } == 0)
        stuck.cancel()
        _ = await stuck.value
        let frames = try #require(await peer.frames(2))
        #expect(frames.map(\.callID) == [1, 1], "only the big call and its Cancel: \(frames.map(\.callID))")
    }

    /// The error `request` fails with on `connection` (nil: it succeeded).
    static func error(of connection: BrokerConnection, _ request: Proto.Call.Request, timeout: Duration? = nil) async -> BrokerError? {
        do {
            _ = try await connection.unary(request, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    /// Waits up to `seconds` for `task` to finish; false if it had not.
    static func finishes<T: Sendable>(_ task: Task<T, Never>, within seconds: Int) async -> Bool {
        let done = Shared(false)
        let watcher = Task {
            _ = await task.value
            done.withLock { $0 = true }
        }
        let finished = await waitUntil(timeout: .seconds(seconds)) { done.current }
        if !finished { watcher.cancel() }
        return finished
    }
}
