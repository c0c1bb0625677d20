@testable import BrokerServer
import BrokerModel
import BrokerWire
import Testing

/// Producers park while the connection has no room for output and resume, in order, when it has.
@Suite("Broker backpressure, in process")
struct BackpressureTests {
    @Test func aUnaryReplyWaitsForRoom() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.slow")
        app.isTakingOutput = false
        app.receive(.call(Call(callID: 2, request: .ping(PingRequest(delayMicros: 1_000, payload: [9])))))
        // The delay has passed; the reply is parked, not queued, and the call still holds its bytes.
        #expect(harness.run(until: { app.producersParked == 1 }))
        #expect(try app.takeFrames().isEmpty)
        #expect(app.heldBytes > 0)
        app.isTakingOutput = true
        let frames = try harness.frames(for: 2, on: app, untilEnd: true)
        #expect(frames.count == 1)
        #expect(frames.first?.status == nil)
        #expect(app.heldBytes == 0)
    }

    @Test func aStreamPumpParksWithoutRoomAndResumesWithIt() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.pump")
        app.receive(.call(Call(callID: 2, initialCredit: 2, request: .pingStream(PingStreamRequest(count: 6)))))
        #expect(try harness.frames(for: 2, on: app, untilEnd: false).count == 2)
        // The peer stops taking output: credit comes, but the pump parks instead of queuing.
        app.isTakingOutput = false
        app.receive(.credit(callID: 2, items: 10))
        harness.run(forMicros: 20_000)
        #expect(try app.takeFrames().isEmpty)
        #expect(app.producersParked == 1)
        // Room again: the rest arrives, in order, then OK.
        app.isTakingOutput = true
        let rest = try harness.frames(for: 2, on: app, untilEnd: true)
        let sequences = rest.compactMap { frame -> UInt64? in
            guard case .ping(let item)? = frame.item else { return nil }
            return item.sequence
        }
        #expect(sequences == [2, 3, 4, 5])
        #expect(rest.last?.status?.code == .ok)
    }

    @Test func aParkedPumpIsParkedOnceHoweverOftenItIsWoken() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.credit")
        app.isTakingOutput = false
        app.receive(.call(Call(callID: 2, initialCredit: 1, request: .pingStream(PingStreamRequest(count: 3)))))
        let parked = app.producersParked
        #expect(parked == 1)
        // Each Credit frame runs the pump, which finds no room; it must not park a second time.
        for _ in 0..<5 { app.receive(.credit(callID: 2, items: 1)) }
        #expect(app.producersParked == parked)
        app.isTakingOutput = true
        let frames = try harness.frames(for: 2, on: app, untilEnd: true)
        #expect(frames.count == 4)
        #expect(frames.last?.status?.code == .ok)
    }
}
