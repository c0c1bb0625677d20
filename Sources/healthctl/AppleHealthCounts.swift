/// What the parser saw in an Apple Health export, for the summary at the end.
struct AppleHealthCounts: Equatable, Sendable {
    /// Records read (top-level and inside correlations), workouts included.
    var records = 0
    /// Correlations read (each kept as a correlation whose objects are its member records).
    var correlations = 0
    /// Workouts read.
    var workouts = 0
    /// Records whose type the broker does not know, per type identifier.
    var unknownTypes: [String: Int] = [:]
    /// Records the broker's rules refuse (bad unit, value, dates), per type, with the first reason.
    var invalid: [String: (count: Int, reason: String)] = [:]
    /// Elements under HealthData this import does not read (ActivitySummary, ClinicalRecord, …), per name.
    var skippedElements: [String: Int] = [:]
    /// Samples sent per source name.
    var perSource: [String: Int] = [:]
    /// Records repeated in the same batch (same derived uuid): already present.
    var repeats = 0
    /// Characteristics from the Me element.
    var characteristics: [(type: String, value: String)] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.records == rhs.records && lhs.correlations == rhs.correlations && lhs.workouts == rhs.workouts
            && lhs.unknownTypes == rhs.unknownTypes && lhs.skippedElements == rhs.skippedElements
            && lhs.perSource == rhs.perSource && lhs.repeats == rhs.repeats
            && lhs.invalid.mapValues(\.count) == rhs.invalid.mapValues(\.count)
            && lhs.characteristics.map { "\($0.type)=\($0.value)" } == rhs.characteristics.map { "\($0.type)=\($0.value)" }
    }

    /// Records refused as invalid, all types.
    var invalidTotal: Int { invalid.values.reduce(0) { $0 + $1.count } }
    /// Records of unknown types, all types.
    var unknownTotal: Int { unknownTypes.values.reduce(0, +) }
}
