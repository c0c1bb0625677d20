public import Foundation

/// `Date`s for limited read decisions (the case itself carries the wire's microseconds).
extension ReadDecision {
    /// Reading limited to samples whose end date is at or after `date`.
    public static func limited(from date: Date) -> ReadDecision {
        .limited(fromMicros: date.microsecondsSince1970)
    }

    /// The start of a limited read; nil for full or denied reading.
    public var limitedFromDate: Date? {
        guard case .limited(let micros) = self else { return nil }
        return Date(microsecondsSince1970: micros)
    }
}
