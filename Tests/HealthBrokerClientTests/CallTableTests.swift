import BrokerWire
import Testing
@testable import HealthBrokerClient

/// Drives the call table with integer waiters.
@Suite("CallTable")
struct CallTableTests {
    typealias Table = CallTable<Int>

    static func ping(_ id: UInt64, _ sequence: UInt64 = 0) -> Proto.ServerFrame {
        ProtoFrames.frame(id, response: ProtoFrames.pong(PingResponse(payload: [1], brokerTimeMicros: 5, sequence: sequence)))
    }

    static func item(_ id: UInt64, _ sequence: UInt64) -> Proto.ServerFrame {
        ProtoFrames.frame(id, response: .streamItem(ProtoFrames.pingItem(PingResponse(sequence: sequence))))
    }

    static func status(_ id: UInt64, _ code: StatusCode, _ message: String = "") -> Proto.ServerFrame {
        ProtoFrames.frame(id, status: Status(code: code, message: message))
    }

    static func itemSequence(_ event: CallEvent?) -> UInt64? {
        if case .item(let item, _) = event, case .ping(let response)? = item.item { return response.sequence }
        return nil
    }

    static func grant(_ event: CallEvent?) -> UInt32? {
        if case .item(_, let grant) = event { return grant }
        return nil
    }

    static func failureCode(_ event: CallEvent?) -> StatusCode? {
        if case .failure(let error) = event { return error.code }
        return nil
    }

    @Test func idsStartAtOneAndIncrease() throws {
        var table = Table()
        #expect(try table.openUnary(deadline: nil).get().id == 1)
        #expect(try table.openStream(deadline: nil, window: 4).get().id == 2)
        #expect(try table.openUnary(deadline: nil).get().id == 3)
        #expect(table.count == 3)
    }

    @Test func replyBeforeAttachIsKeptUntilAttach() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil).get().id
        #expect(table.receive(Self.ping(id)) == nil)
        #expect(table.count == 1)
        #expect(table.attach(id, waiter: 7) == CallEvent.unaryOutcome(of: Self.ping(id)))
        #expect(table.count == 0)
    }

    @Test func replyAfterAttachIsDeliveredToTheWaiter() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil).get().id
        #expect(table.attach(id, waiter: 7) == nil)
        let deliveryEvent = table.receive(Self.ping(id))
        let delivery = try #require(deliveryEvent)
        #expect(delivery.waiter == 7)
        if case .response(.ping) = delivery.event {} else { Issue.record("wrong event \(delivery.event)") }
        #expect(table.count == 0)
    }

    @Test func repliesMatchByIdInAnyOrder() throws {
        var table = Table()
        let ids = try (0..<3).map { _ in try table.openUnary(deadline: nil).get().id }
        for (index, id) in ids.enumerated() { #expect(table.attach(id, waiter: index) == nil) }
        #expect(table.receive(Self.ping(ids[2]))?.waiter == 2)
        #expect(table.receive(Self.status(ids[0], .notFound))?.waiter == 0)
        #expect(table.receive(Self.ping(ids[1]))?.waiter == 1)
        #expect(table.count == 0)
    }

    @Test func errorStatusBecomesFailure() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil, waiter: 1).get().id
        let deliveryEvent = table.receive(ProtoFrames.frame(id, status: Status(code: .permissionDenied, domain: .authorizationDenied, message: "no")))
        let delivery = try #require(deliveryEvent)
        #expect(delivery.event == .failure(BrokerError(code: .permissionDenied, domain: .authorizationDenied, message: "no")))
    }

    @Test func emptyOKReplyIsInternal() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil, waiter: 1).get().id
        let deliveryEvent = table.receive(ProtoFrames.frame(id, status: .ok))
        let delivery = try #require(deliveryEvent)
        #expect(Self.failureCode(delivery.event) == .internal)
    }

    @Test func lateAndUnknownRepliesAreIgnored() throws {
        var table = Table()
        #expect(table.receive(Self.ping(42)) == nil)
        let id = try table.openUnary(deadline: nil, waiter: 1).get().id
        #expect(table.receive(Self.ping(id)) != nil)
        #expect(table.receive(Self.ping(id)) == nil)
    }

    @Test func cancelBeforeAttachCompletesWithCancelled() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil).get().id
        let (delivery, sendCancel) = table.cancel(id)
        #expect(delivery == nil && sendCancel)
        #expect(table.receive(Self.ping(id)) == nil, "a late reply is dropped")
        #expect(Self.failureCode(table.attach(id, waiter: 1)) == .cancelled)
        #expect(table.count == 0)
    }

    @Test func cancelWhileWaitingDeliversCancelled() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil).get().id
        #expect(table.attach(id, waiter: 3) == nil)
        let (delivery, sendCancel) = table.cancel(id)
        #expect(delivery?.waiter == 3 && Self.failureCode(delivery?.event) == .cancelled && sendCancel)
        #expect(table.cancel(id).sendCancel == false, "cancelling twice does nothing")
    }

    @Test func cancelAfterTheReplyDoesNothing() throws {
        var table = Table()
        let id = try table.openUnary(deadline: nil).get().id
        _ = table.receive(Self.ping(id))
        let (delivery, sendCancel) = table.cancel(id)
        #expect(delivery == nil && !sendCancel)
        if case .response = table.attach(id, waiter: 1) {} else { Issue.record("the reply should win") }
    }

    @Test func deadlinesArmTheReaderOnlyWhenEarlier() throws {
        var table = Table()
        #expect(try table.openUnary(deadline: nil).get().wakeLoop == false)
        #expect(try table.openUnary(deadline: 500).get().wakeLoop)
        #expect(table.wakeAt == 500)
        #expect(try table.openUnary(deadline: 700).get().wakeLoop == false)
        #expect(try table.openStream(deadline: 300, window: 1).get().wakeLoop)
        #expect(table.wakeAt == 300)
    }

    @Test func expireFailsDueCallsAndRearms() throws {
        var table = Table()
        let early = try table.openUnary(deadline: 100).get().id
        let late = try table.openUnary(deadline: 200).get().id
        let unattached = try table.openUnary(deadline: 100).get().id
        let none = try table.openUnary(deadline: nil).get().id
        _ = table.attach(early, waiter: 1)
        _ = table.attach(late, waiter: 2)
        _ = table.attach(none, waiter: 4)
        var deliveries: [Table.Delivery] = []
        table.expire(now: 99, into: &deliveries)
        #expect(deliveries.isEmpty && table.wakeAt == 100)
        table.expire(now: 100, into: &deliveries)
        #expect(deliveries.map(\.waiter) == [1])
        #expect(Self.failureCode(deliveries.first?.event) == .deadlineExceeded)
        #expect(table.wakeAt == 200)
        #expect(Self.failureCode(table.attach(unattached, waiter: 3)) == .deadlineExceeded)
        #expect(table.receive(Self.ping(early)) == nil, "late reply ignored")
        deliveries.removeAll()
        table.expire(now: 250, into: &deliveries)
        #expect(deliveries.map(\.waiter) == [2])
        #expect(table.wakeAt == nil)
        #expect(table.count == 1)
    }

    @Test func closeFailsPendingAndLaterCalls() throws {
        var table = Table()
        let waiting = try table.openUnary(deadline: nil).get().id
        let unattached = try table.openUnary(deadline: nil).get().id
        let answered = try table.openUnary(deadline: nil).get().id
        _ = table.attach(waiting, waiter: 1)
        _ = table.receive(Self.ping(answered))
        var deliveries: [Table.Delivery] = []
        let pending = BrokerError(code: .invalidArgument, message: "bad frame")
        let later = BrokerError(code: .unavailable, message: "closed")
        #expect(table.close(failingPendingWith: pending, laterCallsWith: later, into: &deliveries))
        #expect(deliveries.count == 1 && deliveries[0].event == .failure(pending))
        #expect(table.attach(unattached, waiter: 2) == .failure(pending))
        if case .response = table.attach(answered, waiter: 3) {} else { Issue.record("an answer that arrived stays") }
        #expect(table.openUnary(deadline: nil).map(\.id) == .failure(later))
        #expect(table.openStream(deadline: nil, window: 1).map(\.id) == .failure(later))
        #expect(!table.close(failingPendingWith: later, laterCallsWith: later, into: &deliveries))
        #expect(table.cancel(unattached).sendCancel == false)
    }

    @Test func streamBuffersItemsThenEnds() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 4).get().id
        for sequence: UInt64 in 0..<3 { #expect(table.receive(Self.item(id, sequence)) == nil) }
        #expect(table.receive(Self.status(id, .ok)) == nil)
        #expect(Self.itemSequence(table.nextStreamEvent(id, waiter: nil)) == 0)
        let second = table.nextStreamEvent(id, waiter: nil)
        #expect(Self.itemSequence(second) == 1)
        #expect(Self.grant(second) == 0, "no credit once the stream has ended")
        #expect(Self.itemSequence(table.nextStreamEvent(id, waiter: nil)) == 2)
        #expect(table.count == 1)
        #expect(table.nextStreamEvent(id, waiter: nil) == .end)
        #expect(table.count == 0)
    }

    @Test func streamItemGoesStraightToAWaitingConsumerWithCredit() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 2).get().id
        #expect(table.nextStreamEvent(id, waiter: 9) == nil)
        let deliveryEvent = table.receive(Self.item(id, 0))
        let delivery = try #require(deliveryEvent)
        #expect(delivery.waiter == 9 && Self.grant(delivery.event) == 1)
        #expect(table.nextStreamEvent(id, waiter: 9) == nil)
        let endEvent = table.receive(Self.status(id, .dataLoss, "gone"))
        let end = try #require(endEvent)
        #expect(end.event == .failure(BrokerError(code: .dataLoss, message: "gone")))
        #expect(table.count == 0)
    }

    @Test func streamGrantsHalfTheWindow() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 4).get().id
        for sequence: UInt64 in 0..<4 { _ = table.receive(Self.item(id, sequence)) }
        let grants = (0..<4).map { _ in Self.grant(table.nextStreamEvent(id, waiter: nil)) }
        #expect(grants == [0, 2, 0, 2])
    }

    @Test func streamOverrunningItsCreditFails() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 1).get().id
        #expect(table.receive(Self.item(id, 0)) == nil)
        #expect(table.receive(Self.item(id, 1)) == nil)
        #expect(Self.itemSequence(table.nextStreamEvent(id, waiter: nil)) == 0)
        #expect(Self.failureCode(table.nextStreamEvent(id, waiter: nil)) == .internal)
    }

    @Test func streamRejectsNonStreamResponses() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 1).get().id
        _ = table.nextStreamEvent(id, waiter: 1)
        #expect(Self.failureCode(table.receive(Self.ping(id))?.event) == .internal)
    }

    @Test func cancelledStreamReportsCancelled() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 4).get().id
        _ = table.receive(Self.item(id, 0))
        #expect(table.cancel(id).sendCancel)
        #expect(Self.failureCode(table.nextStreamEvent(id, waiter: nil)) == .cancelled)
        #expect(table.receive(Self.item(id, 1)) == nil)
        #expect(table.count == 0)
    }

    @Test func cancelAfterStreamEndSendsNothing() throws {
        var table = Table()
        let id = try table.openStream(deadline: nil, window: 4).get().id
        _ = table.receive(Self.item(id, 0))
        _ = table.receive(Self.status(id, .ok))
        #expect(table.cancel(id).sendCancel == false)
    }

    @Test func streamDeadlineKeepsBufferedItems() throws {
        var table = Table()
        let id = try table.openStream(deadline: 10, window: 4).get().id
        _ = table.receive(Self.item(id, 0))
        var deliveries: [Table.Delivery] = []
        table.expire(now: 10, into: &deliveries)
        #expect(deliveries.isEmpty)
        #expect(Self.itemSequence(table.nextStreamEvent(id, waiter: nil)) == 0)
        #expect(Self.failureCode(table.nextStreamEvent(id, waiter: nil)) == .deadlineExceeded)
    }

    @Test func closeEndsStreamsAfterTheirBufferedItems() throws {
        var table = Table()
        let buffered = try table.openStream(deadline: nil, window: 4).get().id
        let waiting = try table.openStream(deadline: nil, window: 4).get().id
        _ = table.receive(Self.item(buffered, 0))
        _ = table.nextStreamEvent(waiting, waiter: 5)
        var deliveries: [Table.Delivery] = []
        let error = BrokerError(code: .unavailable, message: "eof")
        table.close(failingPendingWith: error, laterCallsWith: error, into: &deliveries)
        #expect(deliveries.map(\.waiter) == [5])
        #expect(Self.itemSequence(table.nextStreamEvent(buffered, waiter: nil)) == 0)
        #expect(table.nextStreamEvent(buffered, waiter: nil) == .failure(error))
        #expect(table.count == 0)
    }
}
