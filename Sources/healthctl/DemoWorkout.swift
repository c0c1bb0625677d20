import BrokerSupport

/// A workout in a demo plan: activity, start and length in minutes, energy and distance.
struct DemoWorkout: Equatable {
    /// The activities the generator uses.
    enum Activity: String, CaseIterable {
        /// Running: many steps, high heart rate.
        case running
        /// Walking: steps, moderate heart rate.
        case walking
        /// Cycling: no steps, high heart rate.
        case cycling
    }

    /// The activity.
    var activity: Activity
    /// The first minute, from midnight UTC.
    var startMinute: Int
    /// How many minutes it lasts.
    var minutes: Int
    /// Energy burned, kcal (one decimal).
    var energyKcal: Double
    /// Distance covered, m (whole metres).
    var distanceMeters: Double

    /// The minute after the last.
    var endMinute: Int { startMinute + minutes }

    /// Maybe a workout (about three a week) on a day with weekday `weekday` (0 = Monday), drawn from `random`.
    static func draw(weekday: Int, using random: inout SplitMix64) -> DemoWorkout? {
        guard random.chance(0.45) else { return nil }
        let pick = random.unit()
        let activity: Activity = pick < 0.45 ? .running : pick < 0.8 ? .walking : .cycling
        let weekend = weekday >= 5
        let start = weekend ? random.integer(600...690) : random.integer(1050...1140)
        let (minutes, kcalPerMinute, metresPerMinute): (Int, Double, Double) = switch activity {
        case .running: (random.integer(25...55), random.uniform(10..<12.5), random.uniform(150..<200))
        case .walking: (random.integer(30...75), random.uniform(4..<5.5), random.uniform(75..<97))
        case .cycling: (random.integer(35...90), random.uniform(7..<9.5), random.uniform(300..<430))
        }
        return DemoWorkout(
            activity: activity, startMinute: start, minutes: minutes,
            energyKcal: (Double(minutes) * kcalPerMinute * 10).rounded() / 10,
            distanceMeters: (Double(minutes) * metresPerMinute).rounded())
    }
}
