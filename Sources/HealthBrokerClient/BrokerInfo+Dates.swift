public import Foundation

/// `Date`s of the broker's status.
extension BrokerInfo {
    /// When the daemon started.
    public var startedDate: Date { Date(microsecondsSince1970: startedMicros) }

    /// The broker's wall clock when it answered.
    public var brokerTime: Date { Date(microsecondsSince1970: brokerTimeMicros) }
}
