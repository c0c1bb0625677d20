import BrokerModel
import BrokerPolicy

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

    /// These bounds cut to the samples starting at or after `floor` (so ending at or after it too); nil when none can.
    func startingAtOrAfter(_ floor: Int64) -> SampleBounds? {
        var cut = self
        cut.startLow = max(cut.startLow, floor)
        cut.endLow = max(cut.endLow, cut.startLow)
        return cut.startLow <= cut.startHigh && cut.endLow <= cut.endHigh ? cut : nil
    }

    /// These bounds cut to the samples that start before `floor` and end at or after it; nil when none can.
    ///
    /// As end − start ≤ `maxDurationMicros`, such samples end before floor + span: the end-date
    /// range is what a read of them scans.
    func straddling(_ floor: Int64, maxDurationMicros: Int64) -> SampleBounds? {
        guard floor > .min else { return nil }
        var cut = self
        cut.startHigh = min(cut.startHigh, floor - 1)
        cut.endLow = max(cut.endLow, floor)
        let (highest, overflow) = (floor - 1).addingReportingOverflow(max(0, maxDurationMicros))
        cut.endHigh = min(cut.endHigh, overflow ? .max : highest)
        return cut.startLow <= cut.startHigh && cut.endLow <= cut.endHigh ? cut : nil
    }

    /// These bounds cut to the rows a page strictly after `cursor` in `sort` order can hold (the
    /// sort date's bound moves to the cursor value; the page SQL breaks ties by seq); nil when none can.
    func after(_ cursor: SampleCursor?, sort: SampleSort) -> SampleBounds? {
        guard let cursor else { return self }
        var cut = self
        switch (sort.key, sort.descending) {
        case (.startDate, false): cut.startLow = max(cut.startLow, cursor.sortValue)
        case (.startDate, true): cut.startHigh = min(cut.startHigh, cursor.sortValue)
        case (.endDate, false): cut.endLow = max(cut.endLow, cursor.sortValue)
        case (.endDate, true): cut.endHigh = min(cut.endHigh, cursor.sortValue)
        }
        return cut.startLow <= cut.startHigh && cut.endLow <= cut.endHigh ? cut : nil
    }

    /// Whether a sample with these dates lies within the bounds.
    func contains(startMicros: Int64, endMicros: Int64) -> Bool {
        (startLow...startHigh).contains(startMicros) && (endLow...endHigh).contains(endMicros)
    }

    /// Binds startLow, startHigh, endLow, endHigh to parameters `first` … `first + 3`.
    func bind(to statement: Statement, from first: Int32) throws(BrokerError) {
        try statement.bind(startLow, at: first)
        try statement.bind(startHigh, at: first + 1)
        try statement.bind(endLow, at: first + 2)
        try statement.bind(endHigh, at: first + 3)
    }
}

/// A `ReadScope` resolved against the store: the floor, and the reading app's code when it stored anything.
struct ScopeFilter {
    /// The end-date floor: nil for own samples only, `.min` for full access.
    let fromMicros: Int64?
    /// The reading app's code in `app_codes`, or nil when it never stored a sample (it owns nothing).
    let ownCode: Int64?

    /// The filter for `scope` read by `appID`; nil for `.notDetermined`, which reads nothing.
    init?(_ scope: ReadScope, appID: String, apps: NameCodeTable) throws(BrokerError) {
        switch scope {
        case .notDetermined: return nil
        case .ownSamplesOnly: fromMicros = nil
        case .from(let floor): fromMicros = floor
        }
        ownCode = appID.isEmpty ? nil : try apps.code(of: appID)
    }
}

/// The longest end − start bounding a read's date ranges, for the rows it may read of every app and of its own.
///
/// Each is derived from what the reader may see, so another app's long sample that it may not
/// see never widens what its read walks.
struct ReadSpans {
    /// A bound on the span of every sample the reader may see of other apps: with full access the
    /// type's longest (`type_spans`), from a floor the longest ending at or after it (`long_spans`).
    let all: Int64
    /// The longest span of the type among the reading app's own samples (`app_type_spans`; 0 when it has none).
    let own: Int64
}
