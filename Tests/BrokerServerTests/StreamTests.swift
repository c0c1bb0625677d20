@testable import BrokerServer
import BrokerModel
import BrokerWire
import Testing

/// Flow control of server streams, and cancelling them.
@Suite("Broker streams, in process")
struct StreamTests {
    /// The ping items among `frames`, by sequence number.
    func sequences(_ frames: [ServerFrame]) -> [UInt64] {
        frames.compactMap { frame in
            guard case .ping(let item)? = frame.item else { return nil }
            return item.sequence
        }
    }

    @Test func aStreamSendsNoMoreItemsThanItsCredit() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.stream")
        app.receive(.call(Call(callID: 2, initialCredit: 3, request: .pingStream(PingStreamRequest(count: 10)))))
        harness.run(forMicros: 20_000)
        var frames = try harness.frames(for: 2, on: app, untilEnd: false)
        #expect(sequences(frames) == [0, 1, 2])
        #expect(frames.allSatisfy { $0.status == nil })

        app.receive(.credit(callID: 2, items: 2))
        harness.run(forMicros: 20_000)
        frames = try harness.frames(for: 2, on: app, untilEnd: false)
        #expect(sequences(frames) == [3, 4])
        #expect(frames.allSatisfy { $0.status == nil })

        app.receive(.credit(callID: 2, items: 100))
        frames = try harness.frames(for: 2, on: app, untilEnd: true)
        #expect(sequences(frames) == [5, 6, 7, 8, 9])
        #expect(frames.last?.status?.code == .ok)
    }

    @Test func cancellingAStreamAnswersCancelled() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.cancel")
        app.receive(.call(Call(callID: 2, initialCredit: 1, request: .pingStream(PingStreamRequest(count: 100)))))
        var frames = try harness.frames(for: 2, on: app, untilEnd: false)
        #expect(sequences(frames) == [0])
        app.receive(.cancel(callID: 2))
        frames = try harness.frames(for: 2, on: app, untilEnd: true)
        #expect(frames.map(\.status?.code) == [.cancelled])
        // Credit for the ended call is dropped: no item follows the status.
        app.receive(.credit(callID: 2, items: 10))
        harness.run(forMicros: 20_000)
        #expect(try app.takeFrames().isEmpty)
        #expect(app.heldBytes == 0)
    }
}
