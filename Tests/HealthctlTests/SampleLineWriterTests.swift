import BrokerModel
@testable import healthctl
import Testing

@Suite struct SampleLineWriterTests {
    static let uuid = "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b6c"

    @Test func aQuantityLine() {
        let sample = Sample(
            uuid: Self.uuid, type: .heartRate, startMicros: Samples.june1 + 1, endMicros: Samples.june1 + 1,
            value: .quantity(Quantity(61, "count/min")), sourceAppID: "demo.watch")
        #expect(SampleLineWriter.line(for: sample) == """
            {"uuid": "\(Self.uuid)", "type": "HKQuantityTypeIdentifierHeartRate", "start": "2025-06-01T10:00:00.000001Z", \
            "end": "2025-06-01T10:00:00.000001Z", "value": 61, "unit": "count/min", "source": "demo.watch"}
            """)
    }

    @Test func numbersAndStrings() {
        #expect(JSONText.number(72) == "72")
        #expect(JSONText.number(-3) == "-3")
        #expect(JSONText.number(0.35) == "0.35")
        #expect(JSONText.number(1e20) == "1e+20")
        #expect(JSONText.string("a\"b\\c\nd\u{01}é") == #""a\"b\\c\nd\u0001é""#)
        #expect(JSONText.object(["b": "2", "a": "1"]) == #"{"a": "1", "b": "2"}"#)
    }

    @Test(arguments: [
        SampleValue.quantity(Quantity(0.1 + 0.2, "count")),
        .quantity(Quantity(1e-7, "kcal")),
        .category(5),
        .workout(WorkoutDetails(activityType: "cycling", durationMicros: 3_599_999_999, totalEnergy: Quantity(512.3, "kcal"), totalDistance: Quantity(21_345, "m"))),
        .workout(WorkoutDetails(activityType: "yoga \"flow\"", durationMicros: 1)),
    ])
    func linesRoundTripThroughImport(value: SampleValue) throws {
        let type: ObjectType = switch value {
        case .quantity(let quantity): quantity.unit == "kcal" ? .activeEnergyBurned : .stepCount
        case .category: .sleepAnalysis
        case .workout: .workout
        case .correlation: .bloodPressure
        }
        let sample = Sample(
            uuid: Self.uuid, type: type, startMicros: Samples.june1 - 123_457, endMicros: Samples.june1 + 3_600_000_000,
            value: value, metadata: ["note": "tab\there", "ünï": "cödé"], sourceAppID: "demo.watch")
        // The source comes back too: `import --keep-sources` files the sample under it.
        #expect(try JSONLineParser().sample(from: SampleLineWriter.line(for: sample)) == sample)
    }

    @Test func workoutsConvertToKilocaloriesAndMetres() {
        let workout = WorkoutDetails(activityType: "running", durationMicros: 1_500_000, totalEnergy: Quantity(4.184, "kJ"), totalDistance: Quantity(2, "km"))
        #expect(SampleLineWriter.workout(workout) == #"{"activity": "running", "duration_s": 1.5, "energy_kcal": 1, "distance_m": 2000}"#)
    }
}
