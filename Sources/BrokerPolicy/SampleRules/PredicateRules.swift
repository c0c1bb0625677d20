public import BrokerModel

/// Date-range predicates exactly as `predicateForSamples(withStart:end:options:)`, and the read clamp.
public enum PredicateRules {
    /// Every option bit the broker knows (strictStartDate | strictEndDate).
    static let knownOptions: SamplePredicate.Options = [.strictStartDate, .strictEndDate]

    /// INVALID_ARGUMENT when both bounds are set and start > end, or options has unknown bits.
    public static func validate(_ predicate: SamplePredicate) throws(BrokerError) {
        if let start = predicate.startMicros, let end = predicate.endMicros, start > end {
            throw .invalidArgument("predicate: start \(ISODate.format(start)) is after end \(ISODate.format(end))")
        }
        let unknown = predicate.options.rawValue & ~knownOptions.rawValue
        if unknown != 0 {
            throw .invalidArgument("predicate: unknown option bits 0x\(String(unknown, radix: 16)) (known: 1 strictStartDate, 2 strictEndDate)")
        }
    }

    /// Exactly predicateForSamples semantics: none → end ≥ start(bound) && start < end(bound); strictStartDate → startBound ≤ s.start < endBound; strictEndDate → startBound ≤ s.end < endBound; both → both; nil bounds open.
    ///
    /// With no options a sample ending exactly at the range start is included; one starting exactly at
    /// the range end is not.
    public static func matches(_ predicate: SamplePredicate, startMicros: Int64, endMicros: Int64) -> Bool {
        let lower = predicate.startMicros ?? .min
        let upper = predicate.endMicros
        /// Whether an instant lies in [lower, upper).
        func inRange(_ instant: Int64) -> Bool { instant >= lower && upper.map { instant < $0 } ?? true }
        switch (predicate.options.contains(.strictStartDate), predicate.options.contains(.strictEndDate)) {
        case (false, false): return endMicros >= lower && upper.map { startMicros < $0 } ?? true
        case (true, false): return inRange(startMicros)
        case (false, true): return inRange(endMicros)
        case (true, true): return inRange(startMicros) && inRange(endMicros)
        }
    }

    /// Scope check: .from(D) → end ≥ D or own; .ownSamplesOnly → own; .notDetermined → false.
    public static func readable(endMicros: Int64, sourceAppID: String, by appID: String, scope: ReadScope) -> Bool {
        let own = !appID.isEmpty && sourceAppID == appID
        switch scope {
        case .notDetermined: return false
        case .ownSamplesOnly: return own
        case .from(let floor): return endMicros >= floor || own
        }
    }
}
