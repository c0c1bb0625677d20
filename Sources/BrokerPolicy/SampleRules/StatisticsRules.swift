public import BrokerModel

/// What a statistics request may ask for, and the calendar buckets it is computed over.
public enum StatisticsRules {
    /// The most buckets one statistics answer may have.
    static let maxBuckets = 100_000

    /// Checks options against the type: sum only for cumulative, average/min/max only for discrete, at least one option, quantity types only; interval grouping needs both predicate bounds; a range of more than 100,000 buckets → INVALID_ARGUMENT; time zone must be a known IANA name ("" = UTC).
    ///
    /// Also checks the predicate (`PredicateRules.validate`) and the result unit against the type's dimension.
    public static func validate(_ query: StatisticsQuery, descriptor: TypeDescriptor) throws(BrokerError) {
        let name = descriptor.type.identifier
        guard descriptor.kind == .quantity else {
            throw .invalidArgument("statistics need a quantity type; \(name) is a \(descriptor.kind.rawValue) type")
        }
        try checkOptions(query.options, descriptor: descriptor)
        try PredicateRules.validate(query.predicate)
        _ = try Units.resultConverter(query.unit, descriptor: descriptor)
        let zone = try CalendarIntervals.timeZone(named: query.timeZone)
        guard query.interval != .none else { return }
        guard let start = query.predicate.startMicros, let end = query.predicate.endMicros else {
            throw .invalidArgument("statistics per \(intervalName(query.interval)) need both a start and an end date")
        }
        let intervals = CalendarIntervals(interval: query.interval, anchorMicros: query.anchorMicros, timeZone: zone)
        switch intervals.countEstimate(start: start, end: end) {
        case let (lower, _) where lower > maxBuckets: throw tooManyBuckets(query.interval)
        case let (_, upper) where upper <= maxBuckets: return
        default: _ = try intervals.boundaries(start: start, end: end, limit: maxBuckets)
        }
    }

    /// Bucket boundaries b0 < b1 < … < bn covering [start, end): for .none just [start, end] (with nil bounds replaced by the given fallbacks); otherwise calendar intervals of the given kind in the time zone, aligned to anchorMicros (the anchor's wall-clock time of day / weekday / day of month, as HKStatisticsCollectionQuery's anchorDate), the first boundary ≤ start and the last ≥ end, then clipped so b0 = start and bn = end. Days are 23 or 25 hours on DST days (use Foundation Calendar with TimeZone(identifier:)).
    ///
    /// An empty range (start = end) is the single empty bucket [start, end]; start > end, an unknown
    /// time zone or more than 100,000 buckets is INVALID_ARGUMENT.
    public static func boundaries(for query: StatisticsQuery, fallbackStart: Int64, fallbackEnd: Int64) throws(BrokerError) -> [Int64] {
        let start = query.predicate.startMicros ?? fallbackStart
        let end = query.predicate.endMicros ?? fallbackEnd
        if start > end {
            throw .invalidArgument("statistics: start \(ISODate.format(start)) is after end \(ISODate.format(end))")
        }
        let zone = try CalendarIntervals.timeZone(named: query.timeZone)
        if query.interval == .none || start == end { return [start, end] }
        let intervals = CalendarIntervals(interval: query.interval, anchorMicros: query.anchorMicros, timeZone: zone)
        if intervals.countEstimate(start: start, end: end).lower > maxBuckets { throw tooManyBuckets(query.interval) }
        return try intervals.boundaries(start: start, end: end, limit: maxBuckets)
    }

    /// Sum alone for cumulative types; average, minimum and maximum for discrete ones; at least one; no unknown bits.
    static func checkOptions(_ options: StatisticsOptions, descriptor: TypeDescriptor) throws(BrokerError) {
        let name = descriptor.type.identifier
        let known: StatisticsOptions = [.sum, .average, .minimum, .maximum]
        let unknown = options.rawValue & ~known.rawValue
        if unknown != 0 {
            throw .invalidArgument("statistics: unknown option bits 0x\(String(unknown, radix: 16)) (known: 1 sum, 2 average, 4 minimum, 8 maximum)")
        }
        if options.isEmpty {
            throw .invalidArgument("statistics: no option given (sum for cumulative types; average, minimum, maximum for discrete ones)")
        }
        switch descriptor.aggregation {
        case .cumulative where options != .sum:
            throw .invalidArgument("statistics: average, minimum and maximum apply to discrete types; \(name) is cumulative (use sum)")
        case .discrete where options.contains(.sum):
            throw .invalidArgument("statistics: sum applies to cumulative types; \(name) is discrete (use average, minimum or maximum)")
        default:
            return
        }
    }

    /// INVALID_ARGUMENT for a range of more than `maxBuckets` intervals.
    static func tooManyBuckets(_ interval: StatisticsInterval) -> BrokerError {
        .invalidArgument("statistics: the range holds more than \(maxBuckets) \(intervalName(interval))s; narrow it or use a longer interval")
    }

    /// "hour", "day", "week", "month" (or "range" for none).
    static func intervalName(_ interval: StatisticsInterval) -> String {
        switch interval {
        case .none: "range"
        case .hour: "hour"
        case .day: "day"
        case .week: "week"
        case .month: "month"
        }
    }
}
