public import Foundation

/// `Date` bounds of a statistics bucket.
extension StatisticsBucket {
    /// When the interval starts.
    public var startDate: Date { Date(microsecondsSince1970: startMicros) }

    /// When the interval ends (exclusive).
    public var endDate: Date { Date(microsecondsSince1970: endMicros) }
}
