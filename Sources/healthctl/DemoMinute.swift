/// What the demo person is doing in one minute of the day.
enum DemoMinute: Equatable {
    /// Asleep (any sleep stage).
    case asleep
    /// In bed but awake.
    case inBed
    /// In a workout.
    case workout(DemoWorkout.Activity)
    /// Up and about.
    case awake

    /// Every minute of `plan`'s day: last night's sleep (from `previous`), the workout, this evening's sleep.
    static func timeline(_ plan: DemoDayPlan, previous: DemoDayPlan) -> [DemoMinute] {
        (0..<DemoDataGenerator.minutesPerDay).map { minute in
            let stage = previous.sleep.stage(at: minute + DemoDataGenerator.minutesPerDay) ?? plan.sleep.stage(at: minute)
            if let stage { return stage.isAsleep ? .asleep : .inBed }
            if let workout = plan.workout, workout.startMinute <= minute, minute < workout.endMinute {
                return .workout(workout.activity)
            }
            return .awake
        }
    }
}
