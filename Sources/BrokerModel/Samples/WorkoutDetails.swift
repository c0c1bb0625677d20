/// What a workout sample holds besides its dates.
public struct WorkoutDetails: Sendable, Hashable {
    /// The activity, e.g. "running", "walking", "cycling".
    public var activityType: String
    /// How long it lasted (may be shorter than end − start, e.g. with pauses).
    package var durationMicros: Int64
    /// Energy burned (energy dimension), if known.
    public var totalEnergy: Quantity?
    /// Distance covered (length dimension), if known.
    public var totalDistance: Quantity?

    /// Creates workout details.
    package init(activityType: String, durationMicros: Int64, totalEnergy: Quantity? = nil, totalDistance: Quantity? = nil) {
        self.activityType = activityType
        self.durationMicros = durationMicros
        self.totalEnergy = totalEnergy
        self.totalDistance = totalDistance
    }
}
