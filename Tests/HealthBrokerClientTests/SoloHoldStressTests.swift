#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire
import Foundation
import Synchronization
import Testing
@testable import HealthBrokerClient

/// Holds under everything that can end or delay a call at once: many callers and solo ones, replies
/// in time, late and never, cancellations, client deadlines, frames big enough to fill the socket
/// (callers park in the outbox), completion-handler calls, and the connection closed mid-round.
///
/// The broker here writes with blocking sends: if the client ever left its socket unread while a
/// call waited (the shape of the hang the first version of holds had), the broker's thread would
/// block, the callers would wait for ever, and the watchdog below would record who reads and what
/// waits. Every call must end, with its own reply or an error its plan allows.
@Suite("Solo holds under stress")
struct SoloHoldStressTests {
    /// What the broker does with a ping: byte 0 of its payload.
    enum Answer: UInt8 {
        case now = 0
        case late = 1
        case never = 2
    }

    /// How a call is made and ended.
    enum Mode {
        /// `unary` awaited (with a client deadline when the broker never answers).
        case awaited
        /// `unary` in a task that is cancelled after a moment.
        case cancelled
        /// `unary` with a completion handler.
        case callback
    }

    struct Step: Sendable {
        var answer: Answer
        var mode: Mode
        var payload: [UInt8]

        /// A 5 ms deadline for calls the broker never answers (the client gives up 250 ms after it).
        var timeout: Duration? { answer == .never && mode != .cancelled ? .milliseconds(5) : nil }
    }

    /// Calls ended so far.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var current: Int { value.load(ordering: .relaxed) }
    }

    /// A small deterministic generator, so a failing round can be replayed.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func plan(round: Int, caller: Int, calls: Int) -> [Step] {
        var random = SplitMix(state: UInt64(round * 1_000 + caller))
        return (0..<calls).map { index in
            let answer: Answer = switch random.next(40) {
            case 0: .never
            case 1..<8: .late
            default: .now
            }
            let mode: Mode = switch random.next(10) {
            case 0, 1: .cancelled
            case 2: .callback
            default: .awaited
            }
            // Mostly small; one in ten big enough that a few fill the socket and callers park.
            let size = [8, 8, 8, 100, 100, 4_096, 4_096, 20_000, 70_000, 240_000][random.next(10)]
            var payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
            payload[0] = answer.rawValue
            payload[1] = UInt8(round)
            payload[2] = UInt8(caller)
            payload[3] = UInt8(truncatingIfNeeded: index)
            payload[4] = UInt8(truncatingIfNeeded: index >> 8)
            return Step(answer: answer, mode: mode, payload: payload)
        }
    }

    /// Runs `step`; nil when it ended as its plan allows, else what went wrong.
    static func run(_ step: Step, on connection: BrokerConnection, closing: Bool) async -> String? {
        let request = ProtoFrames.ping(step.payload)
        let result: Result<Proto.ServerFrame.Response, BrokerError>
        switch step.mode {
        case .awaited:
            do throws(BrokerError) {
                result = .success(try await connection.unary(request, timeout: step.timeout))
            } catch {
                result = .failure(error)
            }
        case .cancelled:
            let call = Task { try await connection.unary(request, timeout: step.timeout) }
            if step.payload[3] % 2 == 0 { await Task.yield() } else { try? await Task.sleep(for: .microseconds(200)) }
            call.cancel()
            result = await call.result.mapError { $0 as? BrokerError ?? BrokerError(code: .unknown, message: "\($0)") }
        case .callback:
            result = await withCheckedContinuation { continuation in
                connection.unary(request, timeout: step.timeout) { continuation.resume(returning: $0) }
            }
        }
        switch result {
        case .success(let response):
            guard step.answer != .never else { return "a call the broker never answered got \(response)" }
            return response == ProtoFrames.pong(PingResponse(payload: step.payload)) ? nil : "call \(step.payload[0..<5]) got another reply"
        case .failure(let error):
            if closing && error.code == .unavailable { return nil }
            if step.mode == .cancelled && error.code == .cancelled { return nil }
            if step.answer == .never && error.code == .deadlineExceeded { return nil }
            return "call \(step.payload[0..<5]) (\(step.mode), \(step.answer)) failed: \(error)"
        }
    }

    /// The broker: answers each ping as its payload says, with blocking writes, until `stop`.
    static func broker(_ peer: SocketPairPeer, stop: Shared<Bool>) -> Thread {
        Thread {
            while !stop.current {
                guard let frames = peer.blockingFrames(1, timeout: .milliseconds(20)) else { return }
                if frames.isEmpty {
                    usleep(500)  // nothing came (or the client hung up): look again
                    continue
                }
                for case .call(let call) in frames {
                    guard case .ping(let ping) = call.request, let answer = ping.payload.first.flatMap(Answer.init) else { continue }
                    if answer == .never { continue }
                    if answer == .late { usleep(300) }
                    peer.send(ServerFrame(callID: call.callID, response: .ping(PingResponse(payload: ping.payload))))
                }
            }
        }
    }

    /// One round: how many callers call at once, and whether the connection is closed midway.
    struct Round: Sendable, CustomTestStringConvertible {
        var seed: Int
        var callers: Int
        var closing: Bool
        var testDescription: String { "\(callers) callers\(closing ? ", closed midway" : ""), seed \(seed)" }
    }

    static let rounds = [
        Round(seed: 0, callers: 1, closing: false), Round(seed: 1, callers: 1, closing: true),
        Round(seed: 2, callers: 2, closing: false), Round(seed: 3, callers: 6, closing: false),
        Round(seed: 4, callers: 6, closing: true), Round(seed: 5, callers: 3, closing: false),
    ]

    @Test(arguments: Self.rounds)
    func everyCallEndsWithItsOwnReplyOrAnAllowedError(_ round: Round) async throws {
        let callers = round.callers, closing = round.closing
        let peer = try SocketPairPeer()
        let connection = peer.connection
        let core = connection.currentCore
        // Every solo call holds (when nothing is queued) for up to 50 µs.
        core.holdBudget.enabled.store(true, ordering: .relaxed)
        core.holdBudget.forcedNanos.store(50_000, ordering: .relaxed)
        let stop = Shared(false)
        Self.broker(peer, stop: stop).start()
        defer { stop.withLock { $0 = true } }
        let problems = Shared<[String]>([])
        let done = Shared(false)
        let ended = Counter()
        let calls = callers == 1 ? 60 : 25
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    let plan = Self.plan(round: round.seed, caller: caller, calls: calls)
                    group.addTask {
                        for step in plan {
                            if let problem = await Self.run(step, on: connection, closing: closing) {
                                problems.withLock { $0.append(problem) }
                            }
                            ended.add()
                        }
                    }
                }
                if closing {
                    group.addTask {
                        // Close once some calls have ended (counting calls, not time).
                        _ = await waitUntil(timeout: .seconds(60)) { ended.current >= 10 * callers }
                        connection.close()
                    }
                }
            }
            done.withLock { $0 = true }
        }
        // A watchdog, not a timing assertion: a round takes a second or two; a client that stopped
        // reading would leave it waiting for ever.
        let finished = await waitUntil(timeout: .seconds(120)) { done.current }
        if !finished {
            let (reader, waiting) = core.table.withLock { table in
                (table.reader, table.unaryCalls.map { "\($0.key): waiter \($0.value.waiter != nil), outcome \($0.value.outcome != nil)" })
            }
            Issue.record("calls did not end: reader \(reader), token \(core.readerToken.current), calls \(waiting), outbox parked \(core.outbox.withLock { $0.parkedCount })")
            connection.close()
        }
        await work.value
        #expect(problems.current == [])
        #expect(core.pendingCallCount == 0)
        let reader = core.table.withLock { $0.reader }
        #expect(reader == .loop || reader == .nobody, "\(reader)")
        // The rounds exercise what they are about: a lone caller's calls hold.
        if callers == 1 && !closing {
            #expect(core.readerToken.holds.load(ordering: .relaxed) > 0, "no call held")
        }
    }
}
