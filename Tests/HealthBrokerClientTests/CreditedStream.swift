import BrokerWire
import HealthBrokerClient

/// The broker side of one server stream that honours flow control: it sends `items` to the first
/// call `answer` is given, never more than the credit granted so far, then (with an `end`) ends it.
/// A Cancel for the call stops it.
///
/// Plug it into a `FakeBroker` with `answer` and `control` (or `FakeBroker(serving:when:)`); `sent`
/// says how far it got and `peakAllowance` the most items it was ever allowed to have outstanding.
final class CreditedStream: Sendable {
    private struct State {
        var callID: UInt64 = 0
        var next = 0
        var allowance: UInt64 = 0
        var peakAllowance: UInt64 = 0
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

    /// `count` ping replies echoing `payload` at broker time 3 s, numbered 0, 1, 2, …
    static func pings(_ count: Int, payload: [UInt8] = [1, 2]) -> [StreamItem] {
        (0..<count).map { .ping(PingResponse(payload: payload, brokerTimeMicros: 3_000_000, sequence: UInt64($0))) }
    }

    /// Items sent so far.
    var sent: Int { state.current.next }

    /// The call id being served (0 before the call arrives).
    var callID: UInt64 { state.current.callID }

    /// The largest credit the broker ever held (items it could send before hearing from the client).
    var peakAllowance: UInt64 { state.current.peakAllowance }

    /// Starts serving `call` with its initial credit (0: the default window).
    func answer(_ call: Call) -> [ServerFrame] {
        state.withLock { state in
            guard state.callID == 0 else { return [] }
            state.callID = call.callID
            state.allowance = UInt64(call.initialCredit == 0 ? Call.defaultStreamCredit : call.initialCredit)
            return flush(&state)
        }
    }

    /// Adds the credit a Credit frame for the served call grants and sends what it allows; a Cancel
    /// for the call stops the stream.
    func control(_ frame: ClientFrame) -> [ServerFrame] {
        state.withLock { state in
            switch frame {
            case .credit(let id, let granted) where id == state.callID:
                state.allowance += UInt64(granted)
                return flush(&state)
            case .cancel(let id) where id == state.callID:
                state.ended = true
                return []
            default:
                return []
            }
        }
    }

    private func flush(_ state: inout State) -> [ServerFrame] {
        state.peakAllowance = max(state.peakAllowance, state.allowance)
        var frames: [ServerFrame] = []
        while !state.ended, state.allowance > 0, state.next < items.count {
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
    /// A fake that serves `stream` to the first call whose request `matches`, honouring credit, and
    /// answers every other call with `otherwise`.
    convenience init(serving stream: CreditedStream, when matches: @escaping @Sendable (Proto.Call.Request) -> Bool, otherwise: @escaping Answer = { _ in [] }) throws {
        try self.init(answer: { call in call.request.map(matches) == true ? stream.answer(call) : otherwise(call) }, control: { stream.control($0) })
    }
}

extension FakeBroker {
    /// A fake that serves `stream` to the first PingStream call and echoes pings.
    convenience init(pinging stream: CreditedStream) throws {
        try self.init(serving: stream, when: { if case .pingStream = $0 { true } else { false } }, otherwise: FakeBroker.echo)
    }
}
