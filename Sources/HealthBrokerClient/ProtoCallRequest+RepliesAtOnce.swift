package import BrokerWire

extension Proto.Call.Request {
    /// Whether the broker answers this request on its loop as soon as it reads it, from what it
    /// holds in memory (no store work, no wait): the only calls whose caller may hold
    /// (`ConnectionCore+Hold`), so that a hold outlasts a few microseconds only when the broker
    /// is stalled. The set is the broker's `answerAtOnce` (BrokerServer, Broker+Calls).
    package var repliesAtOnce: Bool {
        switch self {
        case .ping(let ping): ping.delayMicros == 0
        case .authorizationStatus, .requestStatus, .earliestAuthorizedSampleDate, .earliestPermittedSampleDate: true
        default: false
        }
    }
}
