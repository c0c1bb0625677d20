import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct JSONLineParserTests {
    let parser = JSONLineParser()
    static let uuid = "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b6c"

    func error(_ line: String) -> String? {
        do {
            _ = try parser.sample(from: line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aQuantityLine() throws {
        let sample = try parser.sample(from: """
            {"uuid": "\(Self.uuid)", "type": "stepCount", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T10:01:00.5Z", "value": 42, "unit": "count", "metadata": {"device": "watch"}}
            """)
        #expect(sample == Sample(
            uuid: Self.uuid, type: .stepCount, startMicros: Samples.june1, endMicros: Samples.june1 + 60_500_000,
            value: .quantity(Quantity(42, "count")), metadata: ["device": "watch"]))
    }

    @Test func fullIdentifiersMicrosecondsAndTheCanonicalUnit() throws {
        let sample = try parser.sample(from: """
            {"type": "HKQuantityTypeIdentifierHeartRate", "start_us": 1748772000000000, "value": 61.5}
            """)
        #expect(sample.type == .heartRate)
        #expect(sample.startMicros == Samples.june1)
        #expect(sample.endMicros == Samples.june1)
        #expect(sample.value == .quantity(Quantity(61.5, "count/min")))
    }

    @Test func anyHealthKitUnitOfTheTypesDimensionAndTheTypesOwnDefault() throws {
        let millimolar = try parser.sample(from: """
            {"type": "bloodGlucose", "start": "2025-06-01T10:00:00Z", "value": 5.5, "unit": "mmol<180.15588>/L"}
            """)
        #expect(millimolar.value == .quantity(Quantity(5.5, "mmol<180.15588>/L")))   // the broker stores it in mg/dL
        let plain = try parser.sample(from: """
            {"type": "bloodGlucose", "start": "2025-06-01T10:00:00Z", "value": 99}
            """)
        #expect(plain.value == .quantity(Quantity(99, "mg/dL")))
        let water = try parser.sample(from: """
            {"type": "HKQuantityTypeIdentifierDietaryWater", "start": "2025-06-01T10:00:00Z", "value": 8, "unit": "fl_oz_us"}
            """)
        #expect(water.value == .quantity(Quantity(8, "fl_oz_us")))
        let wrong = error("""
            {"type": "bodyTemperature", "start": "2025-06-01T10:00:00Z", "value": 37, "unit": "mmHg"}
            """)
        #expect(wrong?.contains("unit \"mmHg\" is a pressure unit, but HKQuantityTypeIdentifierBodyTemperature takes temperature units") == true)
    }

    @Test func categoryAndWorkoutLines() throws {
        let sleep = try parser.sample(from: """
            {"type": "sleepAnalysis", "start": "2025-06-01T00:00:00Z", "end": "2025-06-01T07:00:00Z", "category": 4}
            """)
        #expect(sleep.value == .category(4))
        let workout = try parser.sample(from: """
            {"type": "workout", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T10:40:00Z", "workout": {"activity": "running", "duration_s": 1800, "energy_kcal": 300, "distance_m": 5000}}
            """)
        #expect(workout.value == .workout(WorkoutDetails(
            activityType: "running", durationMicros: 1_800_000_000,
            totalEnergy: Quantity(300, "kcal"), totalDistance: Quantity(5000, "m"))))
        let plain = try parser.sample(from: """
            {"type": "workout", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T10:40:00Z", "workout": {"activity": "walking"}}
            """)
        #expect(plain.value == .workout(WorkoutDetails(activityType: "walking", durationMicros: 2_400_000_000)))
    }

    @Test func aMissingUUIDIsDerivedFromTheContentAlone() throws {
        let line = #"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T10:01:00Z", "value": 42}"#
        let spaced = #"{ "value" : 42, "end": "2025-06-01T10:01:00Z", "start": "2025-06-01T10:00:00Z", "type": "stepCount", "source": "x"}"#
        let first = try parser.sample(from: line)
        #expect(first.uuid == (try parser.sample(from: line)).uuid)
        #expect(first.uuid == (try parser.sample(from: spaced)).uuid)
        #expect(first.uuid != (try parser.sample(from: line.replacingOccurrences(of: "42", with: "43"))).uuid)
    }

    @Test(arguments: [
        (#"not json"#, "not a JSON object"),
        (#"[1, 2]"#, "not a JSON object"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1, "colour": "red"}"#, #"unknown field "colour""#),
        (#"{"start": "2025-06-01T10:00:00Z", "value": 1}"#, #"missing "type""#),
        (#"{"type": "stepCount", "value": 1}"#, #"missing "start""#),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "start_us": 5, "value": 1}"#, #"give "start" or "start_us", not both"#),
        (#"{"type": "stepCount", "start": "2025-06-01 10:00", "value": 1}"#, "not an ISO-8601 UTC instant"),
        (#"{"type": "stepCount", "start": "2025-06-01", "value": 1}"#, "not an ISO-8601 UTC instant"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": "many"}"#, #""value": expected a number"#),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1, "metadata": {"a": 1}}"#, #""metadata.a": expected a string"#),
        (#"{"type": "sleepAnalysis", "start": "2025-06-01T10:00:00Z", "category": 1.5}"#, #""category": expected an integer"#),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z"}"#, "missing the value"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1, "category": 1}"#, "give only one of"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "category": 1}"#, "stepCount is a quantity type"),
        (#"{"type": "sleepAnalysis", "start": "2025-06-01T10:00:00Z", "value": 1}"#, "sleepAnalysis is a category type"),
        (#"{"type": "workout", "start": "2025-06-01T10:00:00Z", "workout": {"duration_s": 5}}"#, #"missing "workout.activity""#),
        (#"{"type": "stepz", "start": "2025-06-01T10:00:00Z", "value": 1}"#, "unknown type 'stepz'"),
        (#"{"type": "bloodType", "start": "2025-06-01T10:00:00Z", "value": 1}"#, "characteristic"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1, "unit": "kg"}"#, #"unit "kg" is a mass unit, but HKQuantityTypeIdentifierStepCount takes count units"#),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": -1}"#, "negative"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T09:00:00Z", "value": 1}"#, "start is after end"),
        (#"{"uuid": "nope", "type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1}"#, "not a canonical UUID"),
        (#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "value": 1, "unit": null, "category": null}"#, nil),
    ] as [(String, String?)])
    func badLinesAreExplained(line: String, expected: String?) {
        let message = error(line)
        if let expected {
            #expect(message?.contains(expected) == true, "\(message ?? "no error")")
        } else {
            #expect(message == nil)
        }
    }
}
