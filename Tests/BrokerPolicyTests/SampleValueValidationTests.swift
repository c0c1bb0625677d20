@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("SampleValidator.validate: values, workouts and metadata")
struct SampleValueValidationTests {
    /// The message of validating [valid, valid, `sample`], which must fail.
    func failureAtTwo(_ sample: Sample, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        invalidArgumentMessage({
            _ = try SampleValidator.validate([testSample(1), testSample(2), sample], earliestPermitted: 0)
        }, sourceLocation: sourceLocation)
    }

    func accepts(_ sample: Sample) -> Bool {
        (try? SampleValidator.validate([sample], earliestPermitted: 0)) != nil
    }

    func workout(_ details: WorkoutDetails, start: Int64 = jan2026, end: Int64 = jan2026 + hourMicros) -> Sample {
        testSample(9, .workout, .workout(details), start: start, end: end)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValues(_ value: Double) {
        #expect(failureAtTwo(testSample(9, .heartRate, .quantity(Quantity(value, "count/min"))))
                == "samples[2]: value is not a finite number")
        let energy = workout(WorkoutDetails(activityType: "running", durationMicros: 0, totalEnergy: Quantity(value, "kcal")))
        #expect(failureAtTwo(energy) == "samples[2]: workout energy is not a finite number")
        let distance = workout(WorkoutDetails(activityType: "running", durationMicros: 0, totalDistance: Quantity(value, "m")))
        #expect(failureAtTwo(distance) == "samples[2]: workout distance is not a finite number")
    }

    @Test func valueOverflowingInConversion() {
        #expect(failureAtTwo(testSample(9, .distanceWalkingRunning, .quantity(Quantity(1e307, "mi"))))
                == "samples[2]: value is out of range")
    }

    @Test func negativeCumulativeValue() {
        for (type, unit) in [(ObjectType.stepCount, "count"), (.activeEnergyBurned, "kJ"), (.distanceWalkingRunning, "km"), (.flightsClimbed, "count")] {
            let message = failureAtTwo(testSample(9, type, .quantity(Quantity(-0.5, unit))))
            #expect(message.hasPrefix("samples[2]: value is negative"), "\(message)")
            #expect(!message.contains("0.5"), "the message must not repeat the value")
        }
        #expect(accepts(testSample(9, .stepCount, .quantity(Quantity(0, "count")))))
    }

    @Test func wrongDimensionUnitNamesTheUnit() {
        let message = failureAtTwo(testSample(9, .heartRate, .quantity(Quantity(70, "kg"))))
        #expect(message == "samples[2]: value: unit \"kg\" is a mass unit, but HKQuantityTypeIdentifierHeartRate takes count-per-time units (such as count/min, count/s, count/hr)")
        #expect(failureAtTwo(testSample(9, .stepCount, .quantity(Quantity(1, "")))).contains("unit \"\""))
        #expect(failureAtTwo(testSample(9, .bodyMass, .quantity(Quantity(1, "stone")))).contains("\"stone\""))
    }

    @Test func categoryValueMustBeInTheTypesSet() {
        for value in Int64(0)...5 { #expect(accepts(testSample(9, .sleepAnalysis, .category(value)))) }
        #expect(accepts(testSample(9, .mindfulSession, .category(0))))
        #expect(accepts(testSample(9, .menstrualFlow, .category(4))))
        let sleepValues = "inBed (0), asleepUnspecified (1), awake (2), asleepCore (3), asleepDeep (4), asleepREM (5)"
        for value in [Int64(6), -1, 1_000, .max, .min] {
            #expect(failureAtTwo(testSample(9, .sleepAnalysis, .category(value)))
                    == "samples[2]: category value is not one of HKCategoryTypeIdentifierSleepAnalysis's values: \(sleepValues)")
        }
        // Menstrual flow starts at 1 (unspecified): 0 is not one of its values.
        let message = failureAtTwo(testSample(9, .menstrualFlow, .category(0)))
        #expect(message.hasPrefix("samples[2]: category value is not one of HKCategoryTypeIdentifierMenstrualFlow's values: unspecified (1),"), "\(message)")
        #expect(failureAtTwo(testSample(9, .mindfulSession, .category(1)))
                == "samples[2]: category value is not one of HKCategoryTypeIdentifierMindfulSession's values: notApplicable (0)")
    }

    @Test func workoutActivityType() {
        for activity in ["", "   ", "\t"] {
            #expect(failureAtTwo(workout(WorkoutDetails(activityType: activity, durationMicros: 0)))
                    == "samples[2]: workout activity type is empty")
        }
    }

    @Test func workoutDuration() {
        #expect(failureAtTwo(workout(WorkoutDetails(activityType: "walking", durationMicros: -1)))
                == "samples[2]: workout duration is negative")
        #expect(failureAtTwo(workout(WorkoutDetails(activityType: "walking", durationMicros: hourMicros + 1)))
                == "samples[2]: workout duration is longer than end − start")
        #expect(accepts(workout(WorkoutDetails(activityType: "walking", durationMicros: hourMicros))))
        #expect(accepts(workout(WorkoutDetails(activityType: "walking", durationMicros: 0))))
    }

    @Test func workoutEnergyAndDistanceUnits() {
        let energy = workout(WorkoutDetails(activityType: "cycling", durationMicros: 0, totalEnergy: Quantity(300, "km")))
        #expect(failureAtTwo(energy) == "samples[2]: workout energy: unit \"km\" is a length unit, but the value takes energy units (such as kcal, Cal, kJ, cal, J)")
        let distance = workout(WorkoutDetails(activityType: "cycling", durationMicros: 0, totalDistance: Quantity(20, "kcal")))
        #expect(failureAtTwo(distance) == "samples[2]: workout distance: unit \"kcal\" is an energy unit, but the value takes length units (such as m, km, cm, mi, ft, in, yd)")
        let negative = workout(WorkoutDetails(activityType: "cycling", durationMicros: 0, totalDistance: Quantity(-1, "km")))
        #expect(failureAtTwo(negative).hasPrefix("samples[2]: workout distance is negative"))
    }

    @Test func metadataEntryCount() {
        let full = Dictionary(uniqueKeysWithValues: (0..<SampleValidator.maxMetadataEntries).map { ("key\($0)", "v") })
        #expect(accepts(testSample(9, metadata: full)))
        var over = full
        over["one-more"] = "v"
        #expect(failureAtTwo(testSample(9, metadata: over)) == "samples[2]: metadata has 65 entries; at most 64")
    }

    @Test func metadataKeySize() {
        #expect(accepts(testSample(9, metadata: [String(repeating: "k", count: 128): "v"])))
        let long = failureAtTwo(testSample(9, metadata: [String(repeating: "k", count: 129): "v"]))
        #expect(long.hasPrefix("samples[2]: metadata key \"kkk") && long.hasSuffix("is 129 bytes; at most 128"))
        // Bytes, not characters: 65 × "é" is 130 bytes.
        #expect(failureAtTwo(testSample(9, metadata: [String(repeating: "é", count: 65): "v"])).contains("130 bytes"))
        #expect(failureAtTwo(testSample(9, metadata: ["": "v"])) == "samples[2]: metadata key is empty")
    }

    @Test func metadataValueSizeNeverEchoesTheValue() {
        #expect(accepts(testSample(9, metadata: ["note": String(repeating: "x", count: 1_024)])))
        let message = failureAtTwo(testSample(9, metadata: ["note": String(repeating: "x", count: 1_025)]))
        #expect(message == "samples[2]: metadata value of key \"note\" is 1025 bytes; at most 1024")
    }
}

@Suite("SampleValidator.presenting")
struct SamplePresentingTests {
    @Test func convertsCanonicalQuantities() throws {
        let heart = testSample(1, .heartRate, .quantity(Quantity(72, "count/min")))
        #expect(try SampleValidator.presenting(heart, in: "count/s", dimension: .countPerTime).value == .quantity(Quantity(1.2, "count/s")))
        #expect(try SampleValidator.presenting(heart, in: "", dimension: .countPerTime) == heart)
        #expect(try SampleValidator.presenting(heart, in: "count/min", dimension: .countPerTime) == heart)

        let distance = testSample(2, .distanceWalkingRunning, .quantity(Quantity(1_609.344, "m")))
        #expect(try SampleValidator.presenting(distance, in: "mi", dimension: .length).value == .quantity(Quantity(1, "mi")))
        #expect(try SampleValidator.presenting(distance, in: "km", dimension: .length).value == .quantity(Quantity(1.609344, "km")))

        let energy = testSample(3, .activeEnergyBurned, .quantity(Quantity(100, "kcal")))
        guard case .quantity(let kJ) = try SampleValidator.presenting(energy, in: "kJ", dimension: .energy).value else {
            Issue.record("not a quantity"); return
        }
        #expect(kJ.unit == "kJ" && nearlyEqual(kJ.value, 418.4))
    }

    @Test func keepsEverythingButTheQuantity() throws {
        var sample = testSample(1, .bodyMass, .quantity(Quantity(1, "kg")), metadata: ["a": "b"])
        sample.sourceAppID = "com.example.app"
        sample.createdMicros = 42
        let shown = try SampleValidator.presenting(sample, in: "g", dimension: .mass)
        #expect(shown.value == .quantity(Quantity(1_000, "g")))
        #expect(shown.uuid == sample.uuid && shown.metadata == sample.metadata)
        #expect(shown.sourceAppID == "com.example.app" && shown.createdMicros == 42)
        #expect(shown.startMicros == sample.startMicros && shown.endMicros == sample.endMicros)
    }

    @Test func rejectsAUnitOfAnotherDimension() {
        let sample = testSample(1, .bodyMass, .quantity(Quantity(70, "kg")))
        #expect(invalidArgumentMessage { _ = try SampleValidator.presenting(sample, in: "km", dimension: .mass) }.contains("\"km\""))
    }

    @Test func leavesCategoriesAndWorkoutsAlone() throws {
        let sleep = testSample(1, .sleepAnalysis, .category(2))
        #expect(try SampleValidator.presenting(sleep, in: "", dimension: .none) == sleep)
        let run = testSample(2, .workout, .workout(WorkoutDetails(activityType: "running", durationMicros: 1, totalDistance: Quantity(5_000, "m"))))
        #expect(try SampleValidator.presenting(run, in: "", dimension: .none) == run)
    }
}
