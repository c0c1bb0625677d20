public import Foundation

/// `Date`s of an explanation.
extension Explanation {
    /// The store's earliest permitted date.
    public var earliestPermittedDate: Date { Date(microsecondsSince1970: earliestPermittedMicros) }

    /// The first instant the app may read from (nil: it reads only its own samples, or never asked).
    public var effectiveReadFromDate: Date? { effectiveReadFromMicros.map(Date.init(microsecondsSince1970:)) }
}
