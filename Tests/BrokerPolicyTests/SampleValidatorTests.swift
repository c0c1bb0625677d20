@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("SampleValidator.validate: batch, uuid, type and dates")
struct SampleValidatorTests {
    let floor = jan2020

    func validate(_ samples: [Sample]) throws -> [Sample] {
        try SampleValidator.validate(samples, earliestPermitted: floor)
    }

    /// The message of validating `samples`, which must fail.
    func failure(_ samples: [Sample], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        invalidArgumentMessage({ _ = try validate(samples) }, sourceLocation: sourceLocation)
    }

    @Test func limits() {
        #expect(SampleValidator.maxBatch == 10_000)
        #expect(SampleValidator.maxMetadataEntries == 64)
        #expect(SampleValidator.maxMetadataKeyBytes == 128)
        #expect(SampleValidator.maxMetadataValueBytes == 1_024)
        #expect(SampleValidator.maxCategoryValue == 1_000)
    }

    @Test func normalisesAValidBatch() throws {
        var upper = testSample(1, .heartRate, .quantity(Quantity(1.2, "count/s")))
        upper.uuid = "ABCDEF01-2345-4789-ABCD-EF0123456789"
        upper.sourceAppID = "com.forged.app"
        upper.createdMicros = 99
        upper.metadata = ["device": "watch"]
        let input = [
            upper,
            testSample(2, .stepCount, .quantity(Quantity(250, "count"))),
            testSample(3, .activeEnergyBurned, .quantity(Quantity(418.4, "kJ"))),
            testSample(4, .distanceWalkingRunning, .quantity(Quantity(2, "mi"))),
            testSample(5, .bodyMass, .quantity(Quantity(150, "lb"))),
            testSample(6, .sleepAnalysis, .category(3)),
            testSample(7, .workout, .workout(WorkoutDetails(activityType: "running", durationMicros: 50 * 60_000_000,
                                                            totalEnergy: Quantity(2_092, "kJ"), totalDistance: Quantity(10, "km")))),
        ]
        let output = try validate(input)
        #expect(output.count == input.count)
        #expect(output[0].uuid == "abcdef01-2345-4789-abcd-ef0123456789")
        #expect(output[0].value == .quantity(Quantity(72, "count/min")))
        #expect(output[0].sourceAppID == "")
        #expect(output[0].createdMicros == 0)
        #expect(output[0].metadata == ["device": "watch"])
        #expect(output[0].startMicros == input[0].startMicros && output[0].endMicros == input[0].endMicros)
        #expect(output[1] == input[1])
        guard case .quantity(let energy) = output[2].value, case .quantity(let distance) = output[3].value,
              case .quantity(let mass) = output[4].value, case .workout(let workout) = output[6].value
        else { Issue.record("value kinds changed"); return }
        #expect(energy.unit == "kcal" && nearlyEqual(energy.value, 100))
        #expect(distance == Quantity(3_218.688, "m"))
        #expect(mass.unit == "kg" && nearlyEqual(mass.value, 68.0388555))
        #expect(output[5].value == .category(3))
        #expect(workout.activityType == "running" && workout.durationMicros == 50 * 60_000_000)
        #expect(workout.totalEnergy?.unit == "kcal" && nearlyEqual(workout.totalEnergy?.value ?? 0, 500))
        #expect(workout.totalDistance == Quantity(10_000, "m"))
    }

    @Test func validatingTwiceChangesNothing() throws {
        let once = try validate([testSample(1, .distanceWalkingRunning, .quantity(Quantity(3, "km")))])
        #expect(try validate(once) == once)
    }

    @Test func emptyBatch() {
        #expect(failure([]).contains("empty"))
    }

    @Test func batchOverTheLimit() throws {
        let full = (0..<SampleValidator.maxBatch).map { testSample($0) }
        #expect(try validate(full).count == SampleValidator.maxBatch)
        let message = failure(full + [testSample(SampleValidator.maxBatch)])
        #expect(message.contains("10001") && message.contains("10000"))
    }

    @Test(arguments: [
        "", "not-a-uuid", "0000000000004000800000000000001",
        "00000000-0000-4000-8000-00000000001",     // 35 characters
        "00000000-0000-4000-8000-0000000000011",   // 37 characters
        "{00000000-0000-4000-8000-000000000001}",
        "00000000-0000-4000-8000-00000000000g",
        "0000000-00000-4000-8000-000000000001",    // hyphen in the wrong place
        "00000000_0000_4000_8000_000000000001",
        "00000000-0000-4000-8000-00000000000é",
    ])
    func malformedUUID(_ uuid: String) {
        var bad = testSample(2)
        bad.uuid = uuid
        let message = failure([testSample(1), bad])
        #expect(message.hasPrefix("samples[1]: uuid"), "\(message)")
        #expect(message.contains("8-4-4-4-12"))
    }

    @Test func duplicateUUIDNamesBothIndexes() {
        let message = failure([testSample(1), testSample(2), testSample(1)])
        #expect(message == "samples[2]: duplicate uuid \"\(testUUID(1))\" (also samples[0])")
        // Case does not make a uuid different.
        var upper = testSample(10)
        upper.uuid = upper.uuid.uppercased()
        #expect(failure([testSample(10), upper]).hasPrefix("samples[1]: duplicate uuid"))
    }

    @Test func unknownType() {
        let message = failure([testSample(1), testSample(2, ObjectType("HKQuantityTypeIdentifierMadeUp"))])
        #expect(message == "samples[1]: unknown type \"HKQuantityTypeIdentifierMadeUp\"")
    }

    @Test func characteristicCannotBeSaved() {
        let message = failure([testSample(1, .dateOfBirth, .category(0))])
        #expect(message.hasPrefix("samples[0]: HKCharacteristicTypeIdentifierDateOfBirth"))
        #expect(message.contains("characteristic"))
    }

    @Test(arguments: [
        (ObjectType.stepCount, SampleValue.category(1)),
        (.heartRate, .workout(WorkoutDetails(activityType: "running", durationMicros: 0))),
        (.sleepAnalysis, .quantity(Quantity(1, "count"))),
        (.mindfulSession, .workout(WorkoutDetails(activityType: "yoga", durationMicros: 0))),
        (.workout, .quantity(Quantity(1, "kcal"))),
        (.workout, .category(0)),
    ])
    func valueKindMustMatchTheType(_ type: ObjectType, _ value: SampleValue) {
        let message = failure([testSample(1), testSample(2), testSample(3, type, value)])
        #expect(message.hasPrefix("samples[2]: \(type.identifier) is a "), "\(message)")
    }

    @Test func startAfterEnd() throws {
        let message = failure([testSample(1), testSample(2, start: jan2026 + 1, end: jan2026)])
        #expect(message == "samples[1]: start is after end")
        // An instant sample (start = end) is fine.
        #expect(try validate([testSample(1, start: jan2026, end: jan2026)]).count == 1)
    }

    @Test func startBeforeTheEarliestPermittedDate() throws {
        let message = failure([testSample(1, start: floor - 1, end: floor + hourMicros)])
        #expect(message == "samples[0]: starts before the earliest permitted date 2020-01-01T00:00:00Z")
        #expect(try validate([testSample(1, start: floor, end: floor)]).count == 1)
    }

    @Test func errorsReportTheFirstBadSample() {
        let message = failure([testSample(1), testSample(2, .stepCount, .quantity(Quantity(-1, "count"))),
                               testSample(3, start: 2, end: 1)])
        #expect(message.hasPrefix("samples[1]: "))
    }
}
