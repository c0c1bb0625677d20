import BrokerSupport

/// One night's sleep session in a demo plan: in bed from `bedMinute`, then stages until waking.
///
/// Minutes count from midnight UTC of the day the session starts, so they can run past 1440.
struct DemoSleep: Equatable {
    /// One stage: `[start, end)` in minutes.
    struct Segment: Equatable {
        /// The stage.
        var stage: SleepStage
        /// The first minute.
        var start: Int
        /// The minute after the last.
        var end: Int
    }

    /// Going to bed (the in-bed sample's start).
    var bedMinute: Int
    /// Getting up (the in-bed sample's end).
    var outOfBedMinute: Int
    /// The stages from falling asleep to waking, contiguous and in order.
    var stages: [Segment]

    /// A night that starts on a day with weekday `weekday` (0 = Monday), drawn from `random`.
    static func draw(weekday: Int, using random: inout SplitMix64) -> DemoSleep {
        let lateNight = weekday == 4 || weekday == 5  // Friday and Saturday nights
        let bed = 22 * 60 + random.integer(0...120) + (lateNight ? 40 : 0)
        let asleep = bed + random.integer(5...25)
        let wake = asleep + random.integer(390...500)
        var stages: [Segment] = []
        var minute = asleep
        var cycle = 0
        while minute < wake - 10 {
            let early = cycle < 2
            let plan: [(SleepStage, Int)] = [
                (.asleepCore, random.integer(20...35)),
                (.asleepDeep, early ? random.integer(20...40) : random.integer(5...15)),
                (.asleepCore, random.integer(10...20)),
                (.asleepREM, early ? random.integer(8...15) : random.integer(20...35)),
            ] + (random.chance(0.3) ? [(.awake, random.integer(1...5))] : [])
            for (stage, length) in plan where minute < wake {
                let end = min(minute + length, wake)
                stages.append(Segment(stage: stage, start: minute, end: end))
                minute = end
            }
            cycle += 1
        }
        if minute < wake { stages.append(Segment(stage: .asleepCore, start: minute, end: wake)) }
        return DemoSleep(bedMinute: bed, outOfBedMinute: wake + random.integer(1...15), stages: stages)
    }

    /// The stage at `minute` (from this session's day's midnight): a sleep stage, `.inBed` before
    /// falling asleep or after waking, nil when out of bed.
    func stage(at minute: Int) -> SleepStage? {
        guard minute >= bedMinute, minute < outOfBedMinute else { return nil }
        return stages.first { $0.start <= minute && minute < $0.end }?.stage ?? .inBed
    }
}
