/// Which statistics to compute.
public struct StatisticsOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt32
    /// Creates options from bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Sum (cumulative types).
    public static let sum = StatisticsOptions(rawValue: 1)
    /// Average (discrete types).
    public static let average = StatisticsOptions(rawValue: 2)
    /// Minimum (discrete types).
    public static let minimum = StatisticsOptions(rawValue: 4)
    /// Maximum (discrete types).
    public static let maximum = StatisticsOptions(rawValue: 8)
}

/// The calendar interval statistics are grouped by.
public enum StatisticsInterval: Int32, Sendable, Hashable, CaseIterable {
    /// One bucket over the whole range.
    case none = 0
    /// Hours.
    case hour = 1
    /// Calendar days in the time zone (23 or 25 hours on DST days).
    case day = 2
    /// Weeks.
    case week = 3
    /// Calendar months.
    case month = 4
}

/// A statistics request: type, range, what to compute, grouping, time zone and unit.
public struct StatisticsQuery: Sendable, Hashable {
    /// The quantity type.
    public var type: ObjectType
    /// The date range (bounds required for interval grouping).
    public var predicate: SamplePredicate
    /// What to compute.
    public var options: StatisticsOptions
    /// How to group.
    public var interval: StatisticsInterval
    /// An instant buckets align to (e.g. a local midnight).
    package var anchorMicros: Int64
    /// An IANA time zone name; empty means UTC.
    public var timeZone: String
    /// The result unit; empty: canonical.
    public var unit: String

    /// Creates a statistics query whose buckets align to the Unix epoch (apps set an anchor `Date`
    /// with HealthBrokerClient's `init(type:predicate:options:interval:anchor:timeZone:unit:)`).
    public init(type: ObjectType, predicate: SamplePredicate, options: StatisticsOptions, interval: StatisticsInterval = .none, timeZone: String = "", unit: String = "") {
        self.init(type: type, predicate: predicate, options: options, interval: interval, anchorMicros: 0, timeZone: timeZone, unit: unit)
    }

    /// Creates a statistics query aligned to `anchorMicros` (µs since the epoch; the wire's form).
    package init(type: ObjectType, predicate: SamplePredicate, options: StatisticsOptions, interval: StatisticsInterval = .none, anchorMicros: Int64, timeZone: String = "", unit: String = "") {
        self.type = type
        self.predicate = predicate
        self.options = options
        self.interval = interval
        self.anchorMicros = anchorMicros
        self.timeZone = timeZone
        self.unit = unit
    }
}

/// One interval's statistics.
public struct StatisticsBucket: Sendable, Hashable {
    /// Interval start (µs).
    package var startMicros: Int64
    /// Interval end (µs, exclusive).
    package var endMicros: Int64
    /// Samples counted.
    public var sampleCount: UInt64
    /// Sum, when asked and defined.
    public var sum: Double?
    /// Average, when asked and defined.
    public var average: Double?
    /// Minimum, when asked and defined.
    public var minimum: Double?
    /// Maximum, when asked and defined.
    public var maximum: Double?

    /// Creates a bucket.
    package init(startMicros: Int64, endMicros: Int64, sampleCount: UInt64, sum: Double? = nil, average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil) {
        self.startMicros = startMicros
        self.endMicros = endMicros
        self.sampleCount = sampleCount
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// A statistics answer: the unit and the buckets in time order.
public struct StatisticsResult: Sendable, Hashable {
    /// The unit every value is in.
    public var unit: String
    /// The buckets, earliest first.
    public var buckets: [StatisticsBucket]

    /// Creates a result.
    public init(unit: String, buckets: [StatisticsBucket]) {
        self.unit = unit
        self.buckets = buckets
    }
}
