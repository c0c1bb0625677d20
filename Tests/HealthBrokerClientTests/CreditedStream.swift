import BrokerWire
import HealthBrokerClient

/// The broker side of one server stream that honours flow control: it sends `items` to the first
/// call `answer` is given, never more than the credit granted so far, then (with an `end`) ends it.
///
/// Plug it into a `FakeBroker` with `answer` and `control`; `sent` says how far it got.
final class CreditedStream: Sendable {
    private struct State {
        var callID: UInt64 = 0
        var next = 0
        var allowance: UInt64 = 0
        var ended = false
    }

    private let items: [StreamItem]
    private let end: Status?
    private let state = Shared(State())

    /// A stream of `items` that ends with `end` once all are sent (nil: it never ends).
    init(_ items: [StreamItem], end: Status? = .ok) {
        self.items = items
        self.end = end
    }

    /// Items sent so far.
    var sent: Int { state.current.next }

    /// The call id being served (0 before the call arrives).
    var callID: UInt64 { state.current.callID }

    /// Starts serving `call` with its initial credit (0: the default window).
    func answer(_ call: Call) -> [ServerFrame] {
        state.withLock { state in
            guard state.callID == 0 else { return [] }
            state.callID = call.callID
            state.allowance = UInt64(call.initialCredit == 0 ? Call.defaultStreamCredit : call.initialCredit)
            return flush(&state)
        }
    }

    /// Adds the credit a Credit frame for the served call grants, and sends what it allows.
    func control(_ frame: ClientFrame) -> [ServerFrame] {
        state.withLock { state in
            guard case .credit(let id, let granted) = frame, id == state.callID else { return [] }
            state.allowance += UInt64(granted)
            return flush(&state)
        }
    }

    private func flush(_ state: inout State) -> [ServerFrame] {
        var frames: [ServerFrame] = []
        while state.allowance > 0, state.next < items.count {
            frames.append(ServerFrame(callID: state.callID, response: .streamItem(items[state.next])))
            state.next += 1
            state.allowance -= 1
        }
        if state.next == items.count, let end, !state.ended {
            state.ended = true
            frames.append(ServerFrame(callID: state.callID, status: end))
        }
        return frames
    }
}

extension FakeBroker {
    /// A fake that serves `stream` to the first call whose request `matches`, honouring credit.
    convenience init(serving stream: CreditedStream, when matches: @escaping @Sendable (Request) -> Bool) throws {
        try self.init(answer: { call in matches(call.request) ? stream.answer(call) : [] }, control: { stream.control($0) })
    }
}
