import BrokerModel
import BrokerSupport

/// Generates a realistic, deterministic health history for `healthctl demo-data`.
///
/// Per UTC day: steps for every minute (none asleep, bursts of walking by day, many in runs and
/// walks), heart rate every 5 minutes (low asleep, high in workouts), one sleep session starting that
/// evening (an in-bed sample plus its stages, as `HKCategoryValueSleepAnalysis`), and a workout on
/// about three days a week. Each day draws from its own streams of the seed, and every UUID is derived
/// from (seed, type, start), so the same day always yields the same samples, whatever the range.
struct DemoDataGenerator {
    /// Minutes in a day.
    static let minutesPerDay = 1_440
    /// One minute in µs.
    static let minute: Int64 = 60_000_000
    /// One day in µs.
    static let day: Int64 = 86_400_000_000

    /// The seed every stream derives from.
    let seed: UInt64
    /// The source app the samples are marked with (the broker sets it anyway when importing).
    let sourceAppID: String

    /// The days whose samples can fall in `[start, end)`: the day before `start`'s (its sleep runs past midnight) to `end`'s.
    static func days(from start: Int64, to end: Int64) -> ClosedRange<Int64> {
        let first = floorDivide(start, day) - 1
        return first...max(first, floorDivide(end - 1, day))
    }

    /// Every sample in `[start, end)` (a sample is in when it starts at or after `start` and ends by `end`), by day.
    func samples(from start: Int64, to end: Int64) -> [Sample] {
        Self.days(from: start, to: end).flatMap { samples(day: $0, from: start, to: end) }
    }

    /// The samples `day` generates that lie in `[start, end)`.
    func samples(day: Int64, from start: Int64, to end: Int64) -> [Sample] {
        samples(day: day).filter { $0.startMicros >= start && $0.endMicros <= end }
    }

    /// Everything `day` generates: its minutes' steps, its heart rate, its workout and the sleep that starts that evening.
    func samples(day: Int64) -> [Sample] {
        let plan = DemoDayPlan.plan(seed: seed, day: day)
        let timeline = DemoMinute.timeline(plan, previous: DemoDayPlan.plan(seed: seed, day: day - 1))
        let midnight = day * Self.day
        let steps = stepCounts(timeline, plan: plan)
        var result: [Sample] = []
        result.reserveCapacity(Self.minutesPerDay + Self.minutesPerDay / 5 + 40)
        for (minute, count) in steps.enumerated() {
            let start = midnight + Int64(minute) * Self.minute
            result.append(sample(.stepCount, start: start, end: start + Self.minute, value: .quantity(Quantity(Double(count), "count"))))
        }
        for (minute, beats) in heartRates(timeline, steps: steps, day: day) {
            let at = midnight + Int64(minute) * Self.minute
            result.append(sample(.heartRate, start: at, end: at, value: .quantity(Quantity(Double(beats), "count/min"))))
        }
        result += sleepSamples(plan.sleep, midnight: midnight)
        if let workout = plan.workout { result.append(workoutSample(workout, midnight: midnight)) }
        return result
    }

    /// Steps in each minute of the day.
    func stepCounts(_ timeline: [DemoMinute], plan: DemoDayPlan) -> [Int] {
        var random = SplitMix64(seed: seed, stream: UInt64(bitPattern: plan.day), 2)
        var walking = false
        return timeline.enumerated().map { minute, state in
            // Draw the same number of values every minute, so one minute's state never shifts another's.
            let (draw, size, small) = (random.unit(), random.unit(), random.unit())
            switch state {
            case .asleep, .inBed:
                walking = false
                return 0
            case .workout(.running): return 150 + Int(size * 28)
            case .workout(.walking): return 100 + Int(size * 25)
            case .workout(.cycling): return 0
            case .awake:
                let startChance = Self.walkingChance(hour: minute / 60) * plan.activity
                walking = walking ? draw < 0.8 : draw < startChance
                if walking { return 60 + Int(size * 55) }
                return small < 0.25 ? 1 + Int(size * 12) : 0
            }
        }
    }

    /// Heart rate (count/min) every 5 minutes, from the minute's state and steps.
    func heartRates(_ timeline: [DemoMinute], steps: [Int], day: Int64) -> [(minute: Int, beats: Int)] {
        var random = SplitMix64(seed: seed, stream: UInt64(bitPattern: day), 3)
        return stride(from: 0, to: Self.minutesPerDay, by: 5).map { minute in
            let noise = random.unit()
            let (low, high): (Double, Double) = switch timeline[minute] {
            case .asleep: (50, 60)
            case .inBed: (56, 66)
            case .workout(.running): (145, 172)
            case .workout(.walking): (98, 118)
            case .workout(.cycling): (125, 158)
            case .awake: steps[minute] >= 60 ? (88, 110) : (62, 82)
            }
            return (minute, Int((low + noise * (high - low)).rounded()))
        }
    }

    /// The in-bed sample and the stage samples of one night.
    func sleepSamples(_ sleep: DemoSleep, midnight: Int64) -> [Sample] {
        let inBed = sample(.sleepAnalysis, start: midnight + Int64(sleep.bedMinute) * Self.minute,
                           end: midnight + Int64(sleep.outOfBedMinute) * Self.minute, value: .category(SleepStage.inBed.rawValue))
        return [inBed] + sleep.stages.map { segment in
            sample(.sleepAnalysis, start: midnight + Int64(segment.start) * Self.minute,
                   end: midnight + Int64(segment.end) * Self.minute, value: .category(segment.stage.rawValue))
        }
    }

    /// The workout sample.
    func workoutSample(_ workout: DemoWorkout, midnight: Int64) -> Sample {
        let start = midnight + Int64(workout.startMinute) * Self.minute
        let duration = Int64(workout.minutes) * Self.minute
        let details = WorkoutDetails(
            activityType: workout.activity.rawValue, durationMicros: duration,
            totalEnergy: Quantity(workout.energyKcal, "kcal"), totalDistance: Quantity(workout.distanceMeters, "m"))
        return sample(.workout, start: start, end: start + duration, value: .workout(details),
                      metadata: ["HKMetadataKeyIndoorWorkout": "0"])
    }

    /// A sample with its UUID derived from (seed, type, start).
    func sample(_ type: ObjectType, start: Int64, end: Int64, value: SampleValue, metadata: [String: String] = [:]) -> Sample {
        Sample(uuid: SampleUUID.demo(seed: seed, type: type, startMicros: start), type: type,
               startMicros: start, endMicros: end, value: value, metadata: metadata, sourceAppID: sourceAppID)
    }

    /// The chance, per awake minute, that a walking bout starts at `hour` (UTC).
    static func walkingChance(hour: Int) -> Double {
        switch hour {
        case 6..<8: 0.025
        case 8..<9: 0.04
        case 9..<12: 0.016
        case 12..<13: 0.05
        case 13..<17: 0.014
        case 17..<19: 0.032
        case 19..<22: 0.016
        default: 0.008
        }
    }

    /// Division rounding towards −∞.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
