import BrokerModel
import BrokerWire
import Testing
@testable import HealthBrokerClient

/// Who reads the socket (`CallTable.reader`) through every change the table makes, and the rule
/// that nobody reads only while no call is registered.
@Suite("CallTable reader")
struct CallTableReaderTests {
    typealias Table = CallTable<Int>

    static func pong(_ id: UInt64) -> Proto.ServerFrame {
        ProtoFrames.frame(id, response: ProtoFrames.pong(PingResponse(payload: [1])))
    }

    /// A table whose loop has stopped reading (nothing registered).
    static func idle() -> Table {
        var table = Table()
        table.loopStopsReading()
        return table
    }

    @Test func theLoopReadsAtFirstAndStopsOnlyWithNothingRegistered() throws {
        var table = Table()
        #expect(table.reader == .loop)
        let id = try table.openUnary(deadline: nil).get().id
        table.loopStopsReading()
        #expect(table.reader == .loop, "stopped with a call registered")
        _ = table.receive(Self.pong(id))
        table.loopStopsReading()
        #expect(table.reader == .loop, "stopped while a reply waited for its caller")
        #expect(table.takeFinished(id)?.event == .response(ProtoFrames.pong(PingResponse(payload: [1]))))
        table.loopStopsReading()
        #expect(table.reader == .nobody)
    }

    @Test func aClosedTableKeepsTheLoopReading() {
        var table = Table()
        var deliveries: [Table.Delivery] = []
        let error = BrokerError(code: .unavailable, message: "gone")
        table.close(failingPendingWith: error, laterCallsWith: error, into: &deliveries)
        table.loopStopsReading()
        #expect(table.reader == .loop)
    }

    @Test func aRegistrationWithNobodyReadingWakesTheLoopOrMakesItsCallerTheReader() throws {
        var table = Self.idle()
        let callback = try table.openUnary(deadline: nil, waiter: 1, mayHold: true).get()
        #expect(callback.wakeLoop && !callback.holds && table.reader == .loop, "a call with a waiter is read for by the loop")
        #expect(table.cancel(callback.id).delivery?.waiter == 1)

        table = Self.idle()
        let plain = try table.openUnary(deadline: nil).get()
        #expect(plain.wakeLoop && !plain.holds && table.reader == .loop)

        table = Self.idle()
        let stream = try table.openStream(deadline: nil, window: 1).get()
        #expect(stream.wakeLoop && table.reader == .loop)

        table = Self.idle()
        let solo = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(solo.holds && !solo.wakeLoop && table.reader == .holder(solo.id))
    }

    @Test func callsRegisteredDuringAHoldLeaveItAndItsEndHandsTheSocketToTheLoop() throws {
        var table = Self.idle()
        let solo = try table.openUnary(deadline: nil, mayHold: true).get()
        let other = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(!other.holds && !other.wakeLoop && table.reader == .holder(solo.id), "one holder at a time")
        #expect(table.attach(other.id, waiter: 2) == nil)
        // Another caller cannot end the hold.
        #expect(table.endHold(other.id) == false && table.reader == .holder(solo.id))
        #expect(table.endHold(solo.id) == true, "a waiter is registered: the loop must be woken")
        #expect(table.reader == .loop)
        #expect(table.endHold(solo.id) == false, "ending it twice changes nothing")
    }

    @Test func aHolderTakingItsReplyLastLeavesNobodyReading() throws {
        var table = Self.idle()
        let solo = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(table.takeFinished(solo.id) == nil)
        #expect(table.receive(Self.pong(solo.id)) == nil, "the holder has no waiter: the reply waits in the table")
        let finished = table.takeFinished(solo.id)
        let taken = try #require(finished)
        #expect(!taken.wakeLoop && table.reader == .nobody && table.count == 0)
    }

    @Test func aHoldEndedByCancelDeadlineOrCloseGoesBackAsTheTableSays() throws {
        var table = Self.idle()
        let cancelled = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(table.cancel(cancelled.id).sendCancel)
        #expect(table.takeFinished(cancelled.id)?.event == .failure(.callCancelled))
        #expect(table.reader == .nobody)

        let expired = try table.openUnary(deadline: 10, mayHold: true).get()
        var deliveries: [Table.Delivery] = []
        table.expire(now: 10, into: &deliveries)
        #expect(table.takeFinished(expired.id)?.event == .failure(.clientDeadlineExceeded))
        #expect(table.reader == .nobody)

        let closed = try table.openUnary(deadline: nil, mayHold: true).get()
        let error = BrokerError(code: .unavailable, message: "gone")
        table.close(failingPendingWith: error, laterCallsWith: error, into: &deliveries)
        let finished = table.takeFinished(closed.id)
        let taken = try #require(finished)
        #expect(taken.event == .failure(error))
        #expect(taken.wakeLoop && table.reader == .loop, "the loop must see the end and drop the connection")
    }

    @Test func discardingTheHeldCallEndsTheHold() throws {
        var table = Self.idle()
        let solo = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(table.discard(solo.id) == false)
        #expect(table.reader == .nobody)
        let again = try table.openUnary(deadline: nil, mayHold: true).get()
        _ = try table.openUnary(deadline: nil, waiter: 3).get()
        #expect(table.discard(again.id) == true && table.reader == .loop)
    }

    @Test func theLoopTakesTheSocketBackFromNobodyButNotFromAHolder() throws {
        var table = Self.idle()
        #expect(table.loopReadsAgain() && table.reader == .loop)
        table.loopStopsReading()
        let solo = try table.openUnary(deadline: nil, mayHold: true).get()
        #expect(table.loopReadsAgain() == false && table.reader == .holder(solo.id))
    }
}
