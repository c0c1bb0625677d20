/// A `Duration` for workouts (the broker keeps microseconds).
extension WorkoutDetails {
    /// Workout details lasting `duration` (rounded up to whole microseconds).
    public init(activityType: String, duration: Duration, totalEnergy: Quantity? = nil, totalDistance: Quantity? = nil) {
        self.init(activityType: activityType, durationMicros: duration.wholeMicrosecondsRoundedUp, totalEnergy: totalEnergy, totalDistance: totalDistance)
    }

    /// How long it lasted (may be shorter than end − start, e.g. with pauses).
    public var duration: Duration {
        get { .microseconds(durationMicros) }
        set { durationMicros = newValue.wholeMicrosecondsRoundedUp }
    }
}
