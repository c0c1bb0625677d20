import BrokerModel
import BrokerSupport
import BrokerTransport
import BrokerWire

extension Broker {
    /// The longest delay a ping may ask for.
    static let maxPingDelayMicros: Int64 = 3_600 * Microseconds.perSecond

    /// Answers a ping now, or after its delay on a loop timer (never a sleeping thread).
    func handlePing(_ ping: Proto.PingRequest, context: CallContext) {
        guard ping.delayMicros >= 0, ping.delayMicros <= Self.maxPingDelayMicros else {
            finish(context, error: .invalidArgument("delay_us must be between 0 and \(Self.maxPingDelayMicros)"))
            return
        }
        guard ping.delayMicros > 0 else {
            reply(context, .ping(PingResponse(payload: ping.payload, brokerTimeMicros: Microseconds.now()).proto))
            return
        }
        let timer = loop.schedule(afterMicros: ping.delayMicros) { [weak self, weak context] in
            guard let self, let context else { return }
            self.reply(context, .ping(PingResponse(payload: ping.payload, brokerTimeMicros: Microseconds.now()).proto))
        }
        context.onEnd = { [weak self] in self?.loop.cancelTimer(timer) }
    }

    /// Streams `count` ping items, never more than the client's credit allows.
    func handlePingStream(_ request: Proto.PingStreamRequest, context: CallContext) {
        var next: UInt64 = 0
        let count = UInt64(request.count)
        context.pump = { [weak self, weak context] in
            guard let self, let context else { return }
            while next < count {
                let item = PingResponse(payload: request.payload, brokerTimeMicros: Microseconds.now(), sequence: next)
                guard self.send(.ping(item), on: context) else { return }
                next += 1
            }
            self.endStream(context)
        }
        context.pump?()
    }
}
