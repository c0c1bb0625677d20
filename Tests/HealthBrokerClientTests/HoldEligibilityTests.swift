import BrokerModel
import BrokerWire
import Foundation
import Synchronization
import Testing
@testable import HealthBrokerClient

/// Which calls may hold, and how long a hold waits: only calls the broker answers at once, and
/// (unless a test forces a budget) up to a bound far enough away that arming it costs nothing.
@Suite("Which calls hold, and for how long")
struct HoldEligibilityTests {
    @Test func onlyCallsTheBrokerAnswersAtOnceMayHold() {
        var delayed = Proto.PingRequest()
        delayed.delayMicros = 1_000
        var status = Proto.AuthorizationStatusRequest()
        status.type = "HKQuantityTypeIdentifierStepCount"
        #expect(ProtoFrames.ping([1]).repliesAtOnce)
        #expect(Proto.Call.Request.authorizationStatus(status).repliesAtOnce)
        #expect(Proto.Call.Request.earliestAuthorizedSampleDate(Proto.EarliestAuthorizedSampleDateRequest()).repliesAtOnce)
        #expect(Proto.Call.Request.requestStatus(Proto.RequestStatusRequest()).repliesAtOnce)
        #expect(Proto.Call.Request.earliestPermittedSampleDate(Proto.EarliestPermittedSampleDateRequest()).repliesAtOnce)
        #expect(!Proto.Call.Request.ping(delayed).repliesAtOnce, "a delayed ping waits in the broker")
        #expect(!Proto.Call.Request.query(Proto.QueryRequest()).repliesAtOnce, "a query is store work")
        #expect(!Proto.Call.Request.save(Proto.SaveRequest()).repliesAtOnce, "a save is store work")
    }

    @Test func aHoldWaitsUpToTheFarBoundUnlessABudgetIsForced() {
        let budget = HoldBudget()
        budget.forcedNanos.store(-1, ordering: .relaxed)
        #expect(budget.nanos == 0, "nothing learnt yet: no hold")
        budget.record(waitedNanos: 20_000, takenInHold: false)
        #expect(budget.nanos == HoldBudget.waitBoundNanos)
        #expect(HoldBudget.waitBoundNanos >= 10_000_000, "a nearer timeout made every wake-up slower (PROFILE.md)")
        for _ in 0..<200 { budget.record(waitedNanos: 500_000, takenInHold: false) }
        #expect(budget.nanos == 0, "replies too slow for a hold to pay")
        budget.forcedNanos.store(50_000, ordering: .relaxed)
        #expect(budget.nanos == 50_000)
    }

    @Test func aCallTheBrokerDoesNotAnswerAtOnceDoesNotHold() async throws {
        let (peer, core) = try await SoloHoldTests.idlePeer()
        let held = Shared(false)
        SoloHoldTests.onHold(core) { _ in held.withLock { $0 = true } }
        var delayed = Proto.PingRequest()
        delayed.delayMicros = 1_000
        delayed.payload = [7]
        let call = Task { try await peer.connection.unary(.ping(delayed), timeout: SoloHoldTests.hookAnswered) }
        // The peer answers once the call's frame comes; the loop, not the caller, reads the reply.
        var answered = false
        while !answered {
            let frames = try #require(await peer.frames(1, timeout: SoloHoldTests.patience))
            peer.echoPings(in: frames)
            answered = frames.contains { frame in
                if case .call(let sent) = frame, case .ping(let ping) = sent.request { ping.payload == [7] } else { false }
            }
        }
        #expect(try await call.value == ProtoFrames.pong(PingResponse(payload: [7])))
        #expect(!held.current, "a call the broker does not answer at once held")
        #expect(core.readerToken.holds.load(ordering: .relaxed) == 0)
        #expect(core.holdBudget.takenInHold.load(ordering: .relaxed) == 0)
    }
}
