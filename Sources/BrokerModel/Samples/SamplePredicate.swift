/// A date-range predicate exactly as `HKQuery.predicateForSamples(withStart:end:options:)`.
///
/// No options: overlap (sample.end ≥ start and sample.start < end). `.strictStartDate`:
/// start ≤ sample.start < end. `.strictEndDate`: start ≤ sample.end < end. A nil bound is open.
public struct SamplePredicate: Sendable, Hashable {
    /// Matching options, as `HKQueryOptions`.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits (1 strictStartDate, 2 strictEndDate).
        public let rawValue: UInt32
        /// Creates options from bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The sample must start inside the range.
        public static let strictStartDate = Options(rawValue: 1)
        /// The sample must end inside the range.
        public static let strictEndDate = Options(rawValue: 2)
    }

    /// The range start (µs), or nil for open.
    package var startMicros: Int64?
    /// The range end (µs, exclusive), or nil for open.
    package var endMicros: Int64?
    /// How samples must fall in the range.
    public var options: Options

    /// Creates a predicate.
    package init(startMicros: Int64? = nil, endMicros: Int64? = nil, options: Options = []) {
        self.startMicros = startMicros
        self.endMicros = endMicros
        self.options = options
    }

    /// Matches everything.
    public static let all = SamplePredicate()
}
