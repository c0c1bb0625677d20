@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("StatisticsRules.validate")
struct StatisticsValidateTests {
    let oneDay = SamplePredicate(startMicros: jan2026, endMicros: jan2026 + day)

    func descriptor(_ type: ObjectType) -> TypeDescriptor { TypeCatalogue.descriptor(for: type)! }

    func validate(_ type: ObjectType, _ options: StatisticsOptions, predicate: SamplePredicate? = nil,
                  interval: StatisticsInterval = .none, timeZone: String = "", unit: String = "", anchor: Int64 = 0) throws {
        let query = StatisticsQuery(type: type, predicate: predicate ?? oneDay, options: options, interval: interval,
                                    anchorMicros: anchor, timeZone: timeZone, unit: unit)
        try StatisticsRules.validate(query, descriptor: descriptor(type))
    }

    @Test func sumForCumulativeTypes() throws {
        try validate(.stepCount, .sum)
        try validate(.activeEnergyBurned, .sum, interval: .day, unit: "kJ")
        for options: StatisticsOptions in [.average, .minimum, .maximum, [.sum, .average], [.sum, .maximum]] {
            let message = invalidArgumentMessage { try validate(.stepCount, options) }
            #expect(message.contains("HKQuantityTypeIdentifierStepCount is cumulative"), "\(message)")
        }
    }

    @Test func averageMinimumMaximumForDiscreteTypes() throws {
        try validate(.heartRate, .average)
        try validate(.heartRate, [.average, .minimum, .maximum], interval: .hour)
        try validate(.bodyMass, .minimum, unit: "lb")
        for options: StatisticsOptions in [.sum, [.sum, .average]] {
            let message = invalidArgumentMessage { try validate(.heartRate, options) }
            #expect(message.contains("HKQuantityTypeIdentifierHeartRate is discrete"), "\(message)")
        }
    }

    @Test func atLeastOneKnownOption() {
        #expect(invalidArgumentMessage { try validate(.stepCount, []) }.contains("no option"))
        #expect(invalidArgumentMessage { try validate(.stepCount, [.sum, StatisticsOptions(rawValue: 16)]) }.contains("0x10"))
    }

    @Test func quantityTypesOnly() {
        for type in [ObjectType.sleepAnalysis, .workout, .dateOfBirth] {
            let message = invalidArgumentMessage { try validate(type, .sum) }
            #expect(message.hasPrefix("statistics need a quantity type; \(type.identifier)"), "\(message)")
        }
    }

    @Test func intervalsNeedBothBounds() throws {
        try validate(.stepCount, .sum, predicate: .all)
        try validate(.stepCount, .sum, predicate: SamplePredicate(startMicros: jan2026))
        for predicate in [SamplePredicate(startMicros: jan2026), SamplePredicate(endMicros: jan2026), .all] {
            let message = invalidArgumentMessage { try validate(.stepCount, .sum, predicate: predicate, interval: .day) }
            #expect(message == "statistics per day need both a start and an end date")
        }
    }

    @Test func predicateAndUnitAreChecked() {
        let reversed = SamplePredicate(startMicros: jan2026 + 1, endMicros: jan2026)
        #expect(invalidArgumentMessage { try validate(.stepCount, .sum, predicate: reversed) }.hasPrefix("predicate: start"))
        #expect(invalidArgumentMessage { try validate(.stepCount, .sum, unit: "kg") }.contains("\"kg\""))
    }

    @Test func timeZoneMustBeAnIANAName() throws {
        try validate(.stepCount, .sum, interval: .day, timeZone: "")
        try validate(.stepCount, .sum, interval: .day, timeZone: "UTC")
        try validate(.stepCount, .sum, interval: .day, timeZone: "Europe/Berlin")
        try validate(.stepCount, .sum, interval: .day, timeZone: "America/New_York")
        try validate(.stepCount, .sum, interval: .day, timeZone: "Asia/Kolkata")
        for name in ["Mars/Olympus_Mons", "europe/berlin", "GMT+5", "UTC-03:00", "CEST", "Berlin"] {
            let message = invalidArgumentMessage { try validate(.stepCount, .sum, interval: .day, timeZone: name) }
            #expect(message.hasPrefix("unknown time zone \"\(name)\""), "\(name): \(message)")
        }
    }

    @Test func atMostOneHundredThousandBuckets() throws {
        // Exactly 100,000 hours is allowed; one µs more needs a 100,001st bucket.
        let start = jan2020
        let limit = SamplePredicate(startMicros: start, endMicros: start + 100_000 * hourMicros)
        try validate(.stepCount, .sum, predicate: limit, interval: .hour)
        let over = SamplePredicate(startMicros: start, endMicros: start + 100_000 * hourMicros + 1)
        #expect(invalidArgumentMessage { try validate(.stepCount, .sum, predicate: over, interval: .hour) }.contains("100000 hours"))
        // Far too many days; months over the same range are fine.
        let centuries = SamplePredicate(startMicros: utc("1800-01-01"), endMicros: utc("2100-01-01"))
        #expect(invalidArgumentMessage { try validate(.stepCount, .sum, predicate: centuries, interval: .day) }.contains("days"))
        try validate(.stepCount, .sum, predicate: centuries, interval: .month, timeZone: "Europe/Berlin")
        // Without grouping any range is one bucket.
        try validate(.stepCount, .sum, predicate: SamplePredicate(startMicros: .min, endMicros: .max))
        // The whole Int64 range per hour is refused without enumerating it.
        let everything = SamplePredicate(startMicros: .min, endMicros: .max)
        #expect(invalidArgumentMessage { try validate(.stepCount, .sum, predicate: everything, interval: .hour) }.contains("100000"))
    }
}
