import BrokerModel
import BrokerPolicy
@testable import healthctl
import Testing

@Suite struct DemoDataGeneratorTests {
    static let generator = DemoDataGenerator(seed: 42, sourceAppID: "demo.watch")
    /// 2025-06-01T10:00:00Z: the range ends mid-morning, not at midnight.
    static let end = Samples.june1
    static let ninetyDays = generator.samples(from: end - 90 * Samples.day, to: end)

    static func samples(of type: ObjectType, in samples: [Sample] = ninetyDays) -> [Sample] {
        samples.filter { $0.type == type }
    }

    static func number(_ sample: Sample) -> Double {
        if case .quantity(let quantity) = sample.value { return quantity.value }
        return .nan
    }

    @Test func ninetyDaysHoldEveryMinuteOfStepsAndHeartRateEveryFiveMinutes() {
        let steps = Self.samples(of: .stepCount)
        #expect(steps.count == 129_600)
        #expect(Set(steps.map(\.startMicros)).count == 129_600)
        #expect(steps.allSatisfy { $0.endMicros - $0.startMicros == 60_000_000 && $0.startMicros % 60_000_000 == 0 })
        #expect(Self.samples(of: .heartRate).count == 25_920 + 1)  // both ends are on a 5-minute mark
        #expect(Self.ninetyDays.allSatisfy { $0.startMicros >= Self.end - 90 * Samples.day && $0.endMicros <= Self.end })
    }

    @Test func everySampleIsValidAndHasItsOwnUUID() throws {
        _ = try SampleValidator.validate(Self.ninetyDays.prefix(10_000).map { $0 }, earliestPermitted: 0)
        for chunk in stride(from: 0, to: Self.ninetyDays.count, by: 10_000) {
            let slice = Array(Self.ninetyDays[chunk..<min(chunk + 10_000, Self.ninetyDays.count)])
            #expect(throws: Never.self) { try SampleValidator.validate(slice, earliestPermitted: 0) }
        }
        #expect(Set(Self.ninetyDays.map(\.uuid)).count == Self.ninetyDays.count)
        #expect(Self.ninetyDays.allSatisfy { $0.uuid == SampleUUID.demo(seed: 42, type: $0.type, startMicros: $0.startMicros) })
        #expect(Self.ninetyDays.allSatisfy { $0.sourceAppID == "demo.watch" })
    }

    @Test func theSameSeedGivesTheSameSamplesWhateverTheRange() {
        let day = DemoDataGenerator.floorDivide(Self.end, Samples.day) - 10
        let alone = Self.generator.samples(day: day, from: .min, to: .max)
        let again = DemoDataGenerator(seed: 42, sourceAppID: "demo.watch").samples(day: day, from: .min, to: .max)
        #expect(alone == again)
        let inRange = Set(Self.ninetyDays.map(\.uuid))
        #expect(alone.allSatisfy { inRange.contains($0.uuid) })
        let longer = Self.generator.samples(from: Self.end - 30 * Samples.day, to: Self.end + Samples.day)
        let byUUID = Dictionary(uniqueKeysWithValues: Self.ninetyDays.map { ($0.uuid, $0) })
        #expect(longer.allSatisfy { byUUID[$0.uuid] == nil || byUUID[$0.uuid] == $0 })
        let otherSeed = DemoDataGenerator(seed: 43, sourceAppID: "demo.watch").samples(day: day, from: .min, to: .max)
        #expect(otherSeed.map(Self.number).prefix(1_440) != alone.map(Self.number).prefix(1_440))
    }

    @Test func dailyStepTotalsLookHuman() {
        let steps = Self.samples(of: .stepCount)
        let byDay = Dictionary(grouping: steps) { DemoDataGenerator.floorDivide($0.startMicros, Samples.day) }
        let totals = byDay.values.filter { $0.count == 1_440 }.map { $0.map(Self.number).reduce(0, +) }
        #expect(totals.count == 89)
        #expect(totals.allSatisfy { (2_000...30_000).contains($0) }, "\(totals.sorted())")
        let mean = totals.reduce(0, +) / Double(totals.count)
        #expect((5_000...15_000).contains(mean), "mean \(mean)")
        // Nights are quiet: 03:00-04:00 UTC has (almost) no steps.
        let night = steps.filter { ($0.startMicros % Samples.day) / 3_600_000_000 == 3 }.map(Self.number).reduce(0, +)
        #expect(night < 50 * 89)
    }

    @Test func oneSleepSessionPerNightWithHealthKitStages() {
        let sleep = Self.samples(of: .sleepAnalysis)
        let sessions = sleep.filter { $0.value == .category(SleepStage.inBed.rawValue) }
        #expect((88...90).contains(sessions.count))
        for session in sessions {
            let hours = Double(session.endMicros - session.startMicros) / 3.6e9
            #expect(hours > 6 && hours < 10)
            let stages = sleep.filter { $0.startMicros >= session.startMicros && $0.endMicros <= session.endMicros && $0.uuid != session.uuid }
            #expect(stages.count >= 8)
            #expect(stages.allSatisfy { [2, 3, 4, 5].contains($0.value == .category(0) ? -1 : Self.category($0)) })
            #expect(Set(stages.map(Self.category)).isSuperset(of: [3, 4, 5]))
        }
    }

    static func category(_ sample: Sample) -> Int64 {
        if case .category(let value) = sample.value { return value }
        return -1
    }

    @Test func aFewWorkoutsAWeekWithEnergyDistanceAndAHighHeartRate() {
        let workouts = Self.samples(of: .workout)
        #expect((15...55).contains(workouts.count), "\(workouts.count) workouts in 90 days")
        let heartRates = Self.samples(of: .heartRate)
        var during: [Double] = []
        for workout in workouts {
            guard case .workout(let details) = workout.value else { Issue.record("not a workout"); continue }
            #expect(["running", "walking", "cycling"].contains(details.activityType))
            #expect(details.durationMicros == workout.endMicros - workout.startMicros)
            #expect((details.totalEnergy?.value ?? 0) > 50)
            #expect((details.totalDistance?.value ?? 0) > 1_000)
            during += heartRates.filter { $0.startMicros >= workout.startMicros && $0.startMicros < workout.endMicros }.map(Self.number)
        }
        let resting = heartRates.map(Self.number).filter { $0 < 90 }
        #expect(!during.isEmpty)
        #expect(during.reduce(0, +) / Double(during.count) > 95)
        #expect(resting.reduce(0, +) / Double(resting.count) < 80)
        #expect(Set(workouts.compactMap { sample -> String? in
            if case .workout(let details) = sample.value { return details.activityType }
            return nil
        }).count == 3)
    }

    @Test func noStepsWhileAsleep() {
        let sleep = Self.samples(of: .sleepAnalysis).filter { [3, 4, 5].contains(Self.category($0)) }
        let steps = Self.samples(of: .stepCount)
        let stepsAt = Dictionary(uniqueKeysWithValues: steps.map { ($0.startMicros, Self.number($0)) })
        for stage in sleep.prefix(200) {
            for minute in stride(from: stage.startMicros, to: stage.endMicros, by: 60_000_000) {
                #expect(stepsAt[minute] ?? 0 == 0)
            }
        }
    }

    @Test func rangesEndOnTheMinuteAndSpanWholeDays() {
        let range = DemoDataRange(end: Samples.june1, days: 2)
        #expect(range.start == Samples.june1 - 2 * Samples.day)
        #expect(range.days == (DemoDataGenerator.floorDivide(range.start, Samples.day) - 1)...DemoDataGenerator.floorDivide(range.end - 1, Samples.day))
        #expect(range.description == "2 days from 2025-05-30T10:00:00Z to 2025-06-01T10:00:00Z")
        #expect(DemoDataRange.now() % 60_000_000 == 0)
        #expect(DemoDataGenerator.floorDivide(-1, 10) == -1)
    }
}
