import HealthBrokerClient

/// Where every sample of the privacy scenario lies and which windows app X asks about. Both stores
/// are filled from one layout, so X's own samples are the same uuids and values in each; only store
/// A gets the other apps' samples.
struct PrivacyLayout: Sendable {
    /// One hour in µs.
    static let hour: Int64 = 3_600_000_000
    /// The app whose view must not depend on what else the store holds.
    static let appX = "privacy.x"
    /// The other app that writes steps and sleep (and deletes some of its steps).
    static let watch = "privacy.watch"
    /// The other app that writes heart rate.
    static let ring = "privacy.ring"
    /// The types X writes and is read-denied (A) or fully granted (B).
    static let types: Set<ObjectType> = [.stepCount, .heartRate, .sleepAnalysis]

    /// The end of every window and of the other apps' minute series: a UTC midnight in the past.
    let day0: Int64
    /// How many samples the other apps import before X's old anchor is taken.
    let otherSamples: Int

    /// X's steps: a one-minute sample every 20 minutes over the three days before `day0` (216).
    var ownSteps: [Sample] {
        (0..<216).map { index in
            let start = day0 - 3 * MinuteSteps.day + Int64(index) * 20 * MinuteSteps.minute
            return Self.sample(.stepCount, seed: 0x5801, index: index, start: start, length: MinuteSteps.minute,
                               value: .quantity(Quantity(Double(20 + index % 50), "count")))
        }
    }

    /// Nights of X's own sleep history.
    static let sleepNights = 365

    /// X's sleep: sixteen half-hour samples a night, from nine hours to one hour before each of the
    /// last `sleepNights` midnights up to `day0`; two or three fall in the hour X queries. The long
    /// history matters: a store that widens X's window by the longest span any app ever stored (26
    /// years in A, half an hour in B) walks all of it in A.
    var ownSleep: [Sample] {
        (0..<(16 * Self.sleepNights)).map { index in
            let night = day0 - Int64(Self.sleepNights - 1 - index / 16) * MinuteSteps.day
            let start = night - 9 * Self.hour + Int64(index % 16) * Self.hour / 2
            return Self.sample(.sleepAnalysis, seed: 0x5802, index: index, start: start, length: Self.hour / 2,
                               value: .category(Int64(index % 4)))
        }
    }

    /// The other apps' bulk, a third each of steps (watch), heart rate (ring) and sleep (watch):
    /// minute samples ending at `day0`, so every one of X's windows holds many of them.
    func otherBulk(_ type: ObjectType) -> [Sample] {
        let count = otherSamples / 3
        return (0..<count).map { index in
            let start = day0 - Int64(count - index) * MinuteSteps.minute
            let draw = MinuteSteps.mix(UInt64(index) &+ 0x0B07)
            let value: SampleValue = switch type {
            case .heartRate: .quantity(Quantity(Double(50 + Int(draw % 80)), "count/min"))
            case .sleepAnalysis: .category(Int64(draw % 6))
            default: .quantity(Quantity(Double(draw % 120), "count"))
            }
            return Self.sample(type, seed: Self.seed(of: type), index: index, start: start, length: MinuteSteps.minute, value: value)
        }
    }

    /// Samples spanning 2000-01-02 to `day0` (~26 years): one sleep (watch) and one heart rate (ring).
    /// A store that scans by start date has to walk back to them for any window they overlap.
    var longSamples: (sleep: Sample, heartRate: Sample) {
        let start: Int64 = 946_771_200_000_000 // 2000-01-02T00:00:00Z, after the default earliest permitted date.
        return (
            Self.sample(.sleepAnalysis, seed: 0x2601, index: 0, start: start, length: day0 - start, value: .category(1)),
            Self.sample(.heartRate, seed: 0x2602, index: 0, start: start, length: day0 - start, value: .quantity(Quantity(61, "count/min"))))
    }

    /// Steps watch writes after X's old anchor: one a minute, offset 30 s from the bulk, ending at `day0`.
    var laterSteps: [Sample] {
        let count = max(1_000, otherSamples / 20)
        return (0..<count).map { index in
            let start = day0 - Int64(count - index) * MinuteSteps.minute + 30_000_000
            return Self.sample(.stepCount, seed: 0x1A7E, index: index, start: start, length: MinuteSteps.minute / 2,
                               value: .quantity(Quantity(Double(index % 90), "count")))
        }
    }

    /// Uuids of watch's bulk sleep samples deleted before the old anchor (every 97th).
    var earlyDeletions: [String] {
        stride(from: 0, to: otherSamples / 3, by: 97).map { Self.uuid(seed: Self.seed(of: .sleepAnalysis), index: $0) }
    }

    /// Uuids of watch's bulk step samples deleted after the old anchor (every 50th): many lie in X's windows.
    var laterDeletions: [String] {
        stride(from: 1, to: otherSamples / 3, by: 50).map { Self.uuid(seed: Self.seed(of: .stepCount), index: $0) }
    }

    /// A uuid of another app's sample still in store A (and in no way in B): a delete of it must look
    /// like a delete of a uuid nobody ever stored.
    var foreignUUID: String { Self.uuid(seed: Self.seed(of: .stepCount), index: 2) }

    /// A uuid no store holds.
    static let unknownUUID = MinuteSteps.uuid(0xDEAD_BEEF_0000_0001, 0xDEAD_BEEF_0000_0002)

    /// The seed of a bulk series.
    static func seed(of type: ObjectType) -> UInt64 {
        switch type {
        case .heartRate: 0xB002
        case .sleepAnalysis: 0xB003
        default: 0xB001
        }
    }

    /// The uuid of sample `index` of the series `seed` (stable, so a later run finds the same ones).
    static func uuid(seed: UInt64, index: Int) -> String {
        MinuteSteps.uuid(MinuteSteps.mix(seed &* 0x1_0000 &+ UInt64(index)), MinuteSteps.mix(~seed &+ UInt64(index)))
    }

    /// One sample of a series.
    static func sample(_ type: ObjectType, seed: UInt64, index: Int, start: Int64, length: Int64, value: SampleValue) -> Sample {
        Sample(uuid: uuid(seed: seed, index: index), type: type, startMicros: start, endMicros: start + length, value: value)
    }
}
