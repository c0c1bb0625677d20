import BrokerSupport

/// What the demo person does on one UTC day: how active, the workout (if any), and the night's sleep.
///
/// Drawn from its own stream of the seed, so a day's plan never depends on which other days are generated.
struct DemoDayPlan: Equatable {
    /// Days since 1970-01-01 (UTC).
    var day: Int64
    /// 0 = Monday … 6 = Sunday.
    var weekday: Int
    /// How active the day is (scales the chance of walking bouts), 0.7–1.3.
    var activity: Double
    /// The workout, if any.
    var workout: DemoWorkout?
    /// The sleep session that starts this evening.
    var sleep: DemoSleep

    /// The plan of `day` for `seed`.
    static func plan(seed: UInt64, day: Int64) -> DemoDayPlan {
        var random = SplitMix64(seed: seed, stream: UInt64(bitPattern: day), 1)
        let weekday = Int(((day + 3) % 7 + 7) % 7)  // 1970-01-01 was a Thursday
        let activity = random.uniform(0.7..<1.3)
        let workout = DemoWorkout.draw(weekday: weekday, using: &random)
        let sleep = DemoSleep.draw(weekday: weekday, using: &random)
        return DemoDayPlan(day: day, weekday: weekday, activity: activity, workout: workout, sleep: sleep)
    }
}
