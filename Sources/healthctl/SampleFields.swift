
/// One sample as an input line spells it, before it is checked and turned into a `Sample`.
struct SampleFields: Equatable {
    /// The value an input line gives: a quantity, a category value, a workout, or a correlation's objects.
    enum Value: Equatable {
        /// `"value"` and optionally `"unit"` (default: the type's canonical unit).
        case quantity(Double, unit: String?)
        /// `"category"`.
        case category(Int64)
        /// `"workout"`: activity, duration in seconds (nil: end − start), energy in kcal and distance in m.
        case workout(activity: String, durationSeconds: Double?, energyKcal: Double?, distanceMeters: Double?)
        /// `"objects"`: a correlation's objects (blood pressure, food), each a sample of a member type.
        case correlation([SampleFields])
    }

    /// The UUID given, or nil to derive one from the content.
    var uuid: String?
    /// The type argument: a HealthKit identifier or an alias.
    var type: String
    /// The start, µs since the epoch.
    var startMicros: Int64
    /// The end, µs since the epoch.
    var endMicros: Int64
    /// The value.
    var value: Value
    /// String metadata.
    var metadata: [String: String] = [:]
    /// The source app the line names (JSON `"source"`), if any.
    var source: String? = nil
}
