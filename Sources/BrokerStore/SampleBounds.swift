import BrokerCore

/// A `SamplePredicate` as inclusive ranges on a sample's start and end, bound to SQL parameters.
///
/// Built from predicateForSamples semantics (none: end ≥ S and start < E; strictStartDate:
/// S ≤ start < E; strictEndDate: S ≤ end < E; both: both; nil bounds open), then tightened with
/// what holds for every stored sample of the type: start ≤ end, and end − start ≤ the type's
/// longest span. The tightened ranges match exactly the same samples, but both dates get a lower
/// and an upper bound, so either date index can serve the query as a range scan.
struct SampleBounds: Equatable {
    /// Lowest start (inclusive).
    var startLow: Int64 = .min
    /// Highest start (inclusive).
    var startHigh: Int64 = .max
    /// Lowest end (inclusive).
    var endLow: Int64 = .min
    /// Highest end (inclusive).
    var endHigh: Int64 = .max

    /// The ranges of `predicate` for a type whose samples last at most `maxDurationMicros`; nil when nothing can match.
    init?(_ predicate: SamplePredicate, maxDurationMicros: Int64) {
        let strictStart = predicate.options.contains(.strictStartDate)
        let strictEnd = predicate.options.contains(.strictEndDate)
        if let start = predicate.startMicros {
            if strictStart { startLow = start }
            if strictEnd || !strictStart { endLow = start }
        }
        if let end = predicate.endMicros {
            guard end > .min else { return nil }
            if strictStart || !strictEnd { startHigh = end - 1 }
            if strictEnd { endHigh = end - 1 }
        }
        // start ≤ end.
        endLow = max(endLow, startLow)
        startHigh = min(startHigh, endHigh)
        // end − start ≤ span.
        let span = max(0, maxDurationMicros)
        let (lowest, underflow) = endLow.subtractingReportingOverflow(span)
        startLow = max(startLow, underflow ? .min : lowest)
        let (highest, overflow) = startHigh.addingReportingOverflow(span)
        endHigh = min(endHigh, overflow ? .max : highest)
        guard startLow <= startHigh, endLow <= endHigh else { return nil }
    }

    /// These bounds cut to the samples ending at or after `floor`; nil when none can.
    ///
    /// As end − start ≤ `maxDurationMicros`, such samples also start at or after floor − span, which
    /// keeps the start-date range scan to the readable part.
    func endingAtOrAfter(_ floor: Int64, maxDurationMicros: Int64) -> SampleBounds? {
        var cut = self
        cut.endLow = max(cut.endLow, floor)
        let (lowest, underflow) = cut.endLow.subtractingReportingOverflow(max(0, maxDurationMicros))
        cut.startLow = max(cut.startLow, underflow ? .min : lowest)
        return cut.startLow <= cut.startHigh && cut.endLow <= cut.endHigh ? cut : nil
    }

    /// These bounds cut to the samples ending before `floor`; nil when none can.
    func endingBefore(_ floor: Int64) -> SampleBounds? {
        guard floor > .min else { return nil }
        var cut = self
        cut.endHigh = min(cut.endHigh, floor - 1)
        cut.startHigh = min(cut.startHigh, cut.endHigh)
        return cut.startLow <= cut.startHigh && cut.endLow <= cut.endHigh ? cut : nil
    }

    /// Binds startLow, startHigh, endLow, endHigh to parameters `first` … `first + 3`.
    func bind(to statement: Statement, from first: Int32) throws(BrokerError) {
        try statement.bind(startLow, at: first)
        try statement.bind(startHigh, at: first + 1)
        try statement.bind(endLow, at: first + 2)
        try statement.bind(endHigh, at: first + 3)
    }
}

/// A `ReadScope` as the SQL filter `(end_us >= ?D OR <the row is the app's own>)`.
///
/// `.ownSamplesOnly` binds D as NULL (the comparison is never true); an empty app id binds NULL,
/// so it owns nothing.
struct ScopeFilter {
    /// The end-date floor, or nil for own samples only.
    let fromMicros: Int64?
    /// The reading app, or nil when it owns nothing.
    let appID: String?

    /// The filter for `scope`; nil for `.notDetermined`, which reads nothing.
    init?(_ scope: ReadScope, appID: String) {
        switch scope {
        case .notDetermined: return nil
        case .ownSamplesOnly: fromMicros = nil
        case .from(let floor): fromMicros = floor
        }
        self.appID = appID.isEmpty ? nil : appID
    }

    /// Binds the floor and the reading app's code in `apps` to parameters `first` and `first + 1`.
    ///
    /// An app that never saved has no code and binds NULL: it owns nothing.
    func bind(to statement: Statement, from first: Int32, apps: NameCodeTable) throws(BrokerError) {
        try statement.bind(fromMicros, at: first)
        try statement.bind(try appID.flatMap { (appID) throws(BrokerError) in try apps.code(of: appID) }, at: first + 1)
    }
}
