@testable import BrokerModel
import Testing

@Suite("TypeCatalogue")
struct TypeCatalogueTests {
    @Test func holdsEveryObjectTypeConstantOnce() {
        let expected: [ObjectType] = [
            .stepCount, .heartRate, .restingHeartRate, .activeEnergyBurned, .basalEnergyBurned,
            .distanceWalkingRunning, .flightsClimbed, .bodyMass, .bodyFatPercentage, .oxygenSaturation,
            .sleepAnalysis, .mindfulSession, .workout, .dateOfBirth, .biologicalSex, .bloodType,
        ]
        #expect(Array(TypeCatalogue.all.prefix(expected.count).map(\.type)) == expected)
        #expect(Set(TypeCatalogue.all.map(\.type)).count == TypeCatalogue.all.count)
    }

    @Test(arguments: [
        (ObjectType.stepCount, TypeKind.quantity, AggregationStyle.cumulative, UnitDimension.count),
        (.heartRate, .quantity, .discrete, .countPerTime),
        (.restingHeartRate, .quantity, .discrete, .countPerTime),
        (.activeEnergyBurned, .quantity, .cumulative, .energy),
        (.basalEnergyBurned, .quantity, .cumulative, .energy),
        (.distanceWalkingRunning, .quantity, .cumulative, .length),
        (.flightsClimbed, .quantity, .cumulative, .count),
        (.bodyMass, .quantity, .discrete, .mass),
        (.bodyFatPercentage, .quantity, .discrete, .percent),
        (.oxygenSaturation, .quantity, .discrete, .percent),
        (.sleepAnalysis, .category, .none, .none),
        (.mindfulSession, .category, .none, .none),
        (.workout, .workout, .none, .none),
        (.dateOfBirth, .characteristic, .none, .none),
        (.biologicalSex, .characteristic, .none, .none),
        (.bloodType, .characteristic, .none, .none),
    ])
    func descriptorHasKindAggregationAndDimension(type: ObjectType, kind: TypeKind, aggregation: AggregationStyle, dimension: UnitDimension) throws {
        let descriptor = try #require(TypeCatalogue.descriptor(for: type))
        #expect(descriptor.type == type)
        #expect(descriptor.kind == kind)
        #expect(descriptor.aggregation == aggregation)
        #expect(descriptor.dimension == dimension)
        #expect(descriptor.isCharacteristic == (kind == .characteristic))
        #expect(descriptor.canShare == (kind != .characteristic))
    }

    @Test func characteristicsCannotBeShared() {
        let unshareable = TypeCatalogue.all.filter { !$0.canShare }.map(\.type)
        #expect(TypeCatalogue.all.filter(\.isCharacteristic).allSatisfy { !$0.canShare })
        #expect(Array(unshareable.prefix(3)) == [.dateOfBirth, .biologicalSex, .bloodType])
    }

    @Test func unknownIdentifierHasNoDescriptor() {
        #expect(TypeCatalogue.descriptor(for: ObjectType("HKQuantityTypeIdentifierNope")) == nil)
        #expect(TypeCatalogue.descriptor(for: ObjectType("")) == nil)
        // Identifiers are case-sensitive, as in HealthKit.
        #expect(TypeCatalogue.descriptor(for: ObjectType("hkquantitytypeidentifierstepcount")) == nil)
    }

    @Test func validateReturnsDescriptorsInOrder() throws {
        let descriptors = try TypeCatalogue.validate([.workout, .stepCount, .workout], field: "types")
        #expect(descriptors.map(\.type) == [.workout, .stepCount, .workout])
        #expect(try TypeCatalogue.validate([], field: "types").isEmpty)
    }

    @Test func validateNamesTheFieldAndEveryUnknownIdentifier() throws {
        let error = try #require(thrownError {
            _ = try TypeCatalogue.validate(
                [.stepCount, ObjectType("HKBogusA"), .heartRate, ObjectType("HKBogusB"), ObjectType("HKBogusA")],
                field: "read_types")
        })
        #expect(error.code == .invalidArgument)
        #expect(error.domain == .invalidArgument)
        #expect(error.message.contains("read_types"))
        #expect(error.message.contains("\"HKBogusA\""))
        #expect(error.message.contains("\"HKBogusB\""))
        #expect(!error.message.contains("StepCount"))
        #expect(!error.message.contains("HeartRate"))
        // Each unknown identifier is named once.
        #expect(error.message.ranges(of: "HKBogusA").count == 1)
    }

    @Test func validateMakesAnEmptyIdentifierVisible() throws {
        let error = try #require(thrownError { _ = try TypeCatalogue.validate([ObjectType("")], field: "types") })
        #expect(error.message.contains("\"\""))
        #expect(error.message.contains("identifier in types"))
    }
}
