public import Foundation

/// A `Date` anchor for statistics queries (the broker keeps microseconds since the epoch).
extension StatisticsQuery {
    /// A statistics query whose buckets align to `anchor` (e.g. a local midnight), as `HKStatisticsCollectionQuery`'s anchor date.
    public init(type: ObjectType, predicate: SamplePredicate, options: StatisticsOptions, interval: StatisticsInterval = .none, anchor: Date, timeZone: String = "", unit: String = "") {
        self.init(type: type, predicate: predicate, options: options, interval: interval, anchorMicros: anchor.microsecondsSince1970, timeZone: timeZone, unit: unit)
    }

    /// The instant buckets align to.
    public var anchor: Date {
        get { Date(microsecondsSince1970: anchorMicros) }
        set { anchorMicros = newValue.microsecondsSince1970 }
    }
}
