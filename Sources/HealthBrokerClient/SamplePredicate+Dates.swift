public import Foundation

/// `Date` bounds for predicates (the broker keeps microseconds since the epoch).
extension SamplePredicate {
    /// A predicate from `start` to `end` (exclusive); a nil bound is open. As `HKQuery.predicateForSamples(withStart:end:options:)`.
    public init(start: Date?, end: Date?, options: Options = []) {
        self.init(startMicros: start?.microsecondsSince1970, endMicros: end?.microsecondsSince1970, options: options)
    }

    /// The range start, or nil for open.
    public var startDate: Date? {
        get { startMicros.map(Date.init(microsecondsSince1970:)) }
        set { startMicros = newValue?.microsecondsSince1970 }
    }

    /// The range end (exclusive), or nil for open.
    public var endDate: Date? {
        get { endMicros.map(Date.init(microsecondsSince1970:)) }
        set { endMicros = newValue?.microsecondsSince1970 }
    }
}
