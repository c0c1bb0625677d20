@testable import BrokerServer
import BrokerModel
import BrokerWire
import Testing

/// Calls in flight: deadlines, held bytes and a peer that goes away.
@Suite("Broker calls in flight, in process")
struct CallLifecycleTests {
    @Test func aCallHoldsItsBytesUntilItEnds() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.hold")
        #expect(app.heldBytes == 0)
        app.receive(.call(Call(callID: 2, request: .ping(PingRequest(delayMicros: 20_000, payload: Array(repeating: 7, count: 1_000))))))
        // The request's frame plus the per-call overhead, against the reading budget.
        #expect(app.heldBytes > 1_000 + CallContext.overheadBytes)
        let frames = try harness.frames(for: 2, on: app, untilEnd: true)
        #expect(frames.first?.status == nil)
        #expect(app.heldBytes == 0)
    }

    @Test func aDeadlineEndsACallWithDeadlineExceeded() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.deadline")
        let frames = try harness.call(.ping(PingRequest(delayMicros: 2_000_000)), id: 2, on: app, timeoutMicros: 20_000)
        #expect(frames.map(\.status?.code) == [.deadlineExceeded])
        #expect(app.heldBytes == 0)
        #expect(harness.broker.sessions.values.first?.calls.isEmpty == true)
    }

    @Test func aDisconnectEndsTheCallsInFlightWithoutAReply() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.gone")
        app.receive(.call(Call(callID: 2, request: .ping(PingRequest(delayMicros: 30_000)))))
        #expect(harness.broker.sessions.values.first?.calls.count == 1)
        app.disconnect()
        #expect(harness.broker.sessions.isEmpty)
        // The delay timer was cancelled with the call: nothing is sent when it would have fired.
        harness.run(forMicros: 60_000)
        #expect(try app.takeFrames().isEmpty)
    }
}
