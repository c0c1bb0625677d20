import Testing
@testable import HealthBrokerClient

/// The outbox's bookkeeping alone, with a fake socket that takes what the test allows.
@Suite("Outbox")
struct OutboxTests {
    /// A socket that takes up to `room` bytes and records them.
    final class FakeSocket {
        var room: Int
        var taken: [UInt8] = []
        init(room: Int) { self.room = room }
        func send(_ bytes: UnsafeRawBufferPointer) -> Int {
            let count = min(room, bytes.count)
            taken += bytes[0..<count]
            room -= count
            return count
        }
    }

    static func frame(_ byte: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }

    @Test func aFrameGoesStraightOutWhenNothingIsQueuedAndTheSocketTakesIt() {
        var outbox = Outbox<Int>(limit: 100)
        let socket = FakeSocket(room: 1_000)
        #expect(outbox.submit(Self.frame(1, 50), send: socket.send) == .written)
        #expect(!outbox.hasBacklog)
        #expect(socket.taken == Self.frame(1, 50))
    }

    @Test func theRestOfAPartlyWrittenFrameQueuesAndLaterFramesWaitBehindIt() {
        var outbox = Outbox<Int>(limit: 100)
        let socket = FakeSocket(room: 30)
        #expect(outbox.submit(Self.frame(1, 50), send: socket.send) == .queued(wakeLoop: true))
        #expect(outbox.queuedBytes == 20)
        #expect(outbox.submit(Self.frame(2, 40), send: socket.send) == .queued(wakeLoop: false))
        #expect(outbox.submit(Self.frame(3, 41), send: socket.send) == .full, "60 + 41 > 100")
        #expect(outbox.park(Self.frame(3, 41), callID: 3, deadline: nil, waiter: 3) == false)
        #expect(outbox.submit(Self.frame(4, 1), send: socket.send) == .full, "nothing passes a parked frame")
        #expect(outbox.submit(Self.frame(9, 2), control: true, send: socket.send) == .queued(wakeLoop: false))
        socket.room = 1_000
        var admitted: [Int] = []
        #expect(outbox.flush(into: &admitted, send: socket.send) == nil)
        #expect(admitted == [3])
        #expect(outbox.flush(into: &admitted, send: socket.send) == nil)
        #expect(socket.taken == Self.frame(1, 50) + Self.frame(2, 40) + Self.frame(9, 2) + Self.frame(3, 41))
        #expect(!outbox.hasBacklog)
    }

    @Test func aFrameLargerThanTheBoundGoesAloneWhenTheQueueIsEmpty() {
        var outbox = Outbox<Int>(limit: 100)
        let socket = FakeSocket(room: 0)
        #expect(outbox.submit(Self.frame(1, 500), send: socket.send) == .queued(wakeLoop: true))
        #expect(outbox.submit(Self.frame(2, 1), send: socket.send) == .full)
        #expect(outbox.park(Self.frame(2, 1), callID: 2, deadline: nil, waiter: 2) == false)
        socket.room = 450
        var admitted: [Int] = []
        _ = outbox.flush(into: &admitted, send: socket.send)
        #expect(admitted == [2], "50 queued + 1 fits")
    }

    @Test func cancelledAndExpiredParkedFramesAreTakenBackUnsent() {
        var outbox = Outbox<Int>(limit: 10)
        let socket = FakeSocket(room: 0)
        _ = outbox.submit(Self.frame(1, 20), send: socket.send)
        #expect(outbox.park(Self.frame(2, 5), callID: 2, deadline: 100, waiter: 2) == false)
        #expect(outbox.park(Self.frame(3, 5), callID: 3, deadline: nil, waiter: 3) == false)
        #expect(outbox.cancelParked(3) == 3)
        #expect(outbox.cancelParked(4) == nil)
        #expect(outbox.park(Self.frame(4, 5), callID: 4, deadline: nil, waiter: 4) == nil, "cancelled before it parked")
        var expired: [Int] = []
        outbox.withdrawExpired(now: 99, into: &expired)
        #expect(expired.isEmpty)
        outbox.withdrawExpired(now: 100, into: &expired)
        #expect(expired == [2])
        socket.room = 1_000
        var admitted: [Int] = []
        _ = outbox.flush(into: &admitted, send: socket.send)
        #expect(socket.taken == Self.frame(1, 20))
    }

    @Test func aFailedWriteClosesTheOutboxAndIsHandedToTheLoopOnce() {
        var outbox = Outbox<Int>(limit: 10)
        #expect(outbox.submit(Self.frame(1, 5)) { _ in -32 } == .failed(32))
        #expect(outbox.submit(Self.frame(2, 5)) { _ in 5 } == .closed)
        #expect(outbox.takeUnhandledFailure() == 32)
        #expect(outbox.takeUnhandledFailure() == nil)
        #expect(outbox.park(Self.frame(3, 5), callID: 3, deadline: nil, waiter: 3) == true, "dropped: the table has the outcome")
    }

    @Test func closingResumesEveryParkedCaller() {
        var outbox = Outbox<Int>(limit: 10)
        _ = outbox.submit(Self.frame(1, 20)) { _ in 0 }
        _ = outbox.park(Self.frame(2, 5), callID: 2, deadline: nil, waiter: 2)
        _ = outbox.park(Self.frame(3, 5), callID: 3, deadline: nil, waiter: 3)
        #expect(outbox.close() == [2, 3])
        #expect(!outbox.hasBacklog)
        #expect(outbox.submit(Self.frame(4, 1)) { _ in 1 } == .closed)
    }
}
