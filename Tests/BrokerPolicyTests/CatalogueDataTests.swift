@testable import BrokerModel
import Testing

/// The catalogue generated from catalogue/healthkit-types.tsv: its size, its entries' consistency and units.
@Suite("Catalogue data")
struct CatalogueDataTests {
    @Test func coversHealthKit() {
        let kinds = Dictionary(grouping: TypeCatalogue.all, by: \.kind).mapValues(\.count)
        #expect(kinds[.quantity, default: 0] >= 100)
        #expect(kinds[.category, default: 0] >= 40)
        #expect(kinds[.workout] == 1)
        #expect(TypeCatalogue.all.filter(\.isCharacteristic).map(\.type) == [
            .dateOfBirth, .biologicalSex, .bloodType, .fitzpatrickSkinType, .wheelchairUse, .activityMoveMode,
        ])
        #expect(TypeCatalogue.all.filter { $0.kind == .correlation }.map(\.type) == [.bloodPressure, .food])
        #expect(TypeCatalogue.count == TypeCatalogue.all.count)
    }

    @Test func keepsTheFirstCatalogueInItsOrder() {
        let first: [ObjectType] = [
            .stepCount, .heartRate, .restingHeartRate, .activeEnergyBurned, .basalEnergyBurned,
            .distanceWalkingRunning, .flightsClimbed, .bodyMass, .bodyFatPercentage, .oxygenSaturation,
            .sleepAnalysis, .mindfulSession, .workout, .dateOfBirth, .biologicalSex, .bloodType,
        ]
        #expect(Array(TypeCatalogue.all.prefix(first.count).map(\.type)) == first)
        // Their stored units are unchanged.
        #expect(TypeCatalogue.all.prefix(10).map(\.canonicalUnit) == ["count", "count/min", "count/min", "kcal", "kcal", "m", "count", "kg", "%", "%"])
    }

    @Test func everyIndexAndIdentifierAgree() {
        for (index, descriptor) in TypeCatalogue.all.enumerated() {
            #expect(descriptor.type.catalogueIndex == index)
            #expect(TypeCatalogue.knownIdentifiers[index].description == descriptor.type.identifier)
            #expect(ObjectType(descriptor.type.identifier) == descriptor.type)
            #expect(TypeCatalogue.type(named: TypeCatalogue.alias(of: descriptor.type)) == descriptor.type)
        }
        #expect(Set(TypeCatalogue.all.map { TypeCatalogue.alias(of: $0.type).lowercased() }).count == TypeCatalogue.count)
    }

    /// Every quantity type's canonical unit parses, is of the type's dimension and converts to itself.
    @Test func everyCanonicalUnitParsesAndConvertsToItself() throws {
        for descriptor in TypeCatalogue.all where descriptor.kind == .quantity {
            let unit = try HealthUnit(parsing: descriptor.canonicalUnit)
            var exponents = unit.exponents
            if descriptor.molarMass != nil { exponents = unit.substitutingMolarMass(1).exponents }
            #expect(exponents == descriptor.dimension.exponents, "\(descriptor.type): \(descriptor.canonicalUnit)")
            // Through the parser, not the shortcut for the identical string.
            let spelled = "(\(descriptor.canonicalUnit))"
            let converter = try UnitConverter(spelled, for: descriptor)
            for value in [0, 1, 37.5, 1_234.5] {
                #expect(abs(converter.toCanonical(value) - value) <= 1e-9 * max(1, abs(value)), "\(descriptor.type) \(value)")
            }
        }
    }

    /// Every dimension's own canonical unit and example units are of it; every dimension a type uses is one of them.
    @Test func everyDimensionHasItsCanonicalUnit() throws {
        for dimension in UnitDimension.allCases where dimension != .none {
            #expect(try HealthUnit(parsing: dimension.canonicalUnit).exponents == dimension.exponents, "\(dimension)")
            for unit in dimension.exampleUnits {
                #expect(try HealthUnit(parsing: unit).exponents == dimension.exponents, "\(dimension): \(unit)")
            }
        }
        #expect(Set(UnitDimension.allCases.map(\.exponents)).count == UnitDimension.allCases.count)
        for descriptor in TypeCatalogue.all {
            #expect((descriptor.kind == .quantity) == (descriptor.dimension != .none))
            #expect((descriptor.kind == .quantity) == (descriptor.aggregation != .none))
        }
    }

    @Test func namesAndGroupsForPeople() {
        let descriptor = TypeCatalogue.descriptor(for: .bloodGlucose)
        #expect(descriptor?.displayName == "Blood glucose")
        #expect(descriptor?.group == .vitals)
        #expect(TypeCatalogue.descriptor(for: .stepCount)?.displayName == "Steps")
        #expect(TypeCatalogue.descriptor(for: .sleepAnalysis)?.group == .sleep)
        #expect(TypeCatalogue.all.allSatisfy { !$0.displayName.isEmpty })
        #expect(TypeCatalogue.all.filter(\.isCharacteristic).allSatisfy { $0.group == .characteristics })
    }

    @Test func shareableAsHealthKitAllows() {
        for type: ObjectType in [.walkingHeartRateAverage, .appleExerciseTime, .appleStandTime, .appleMoveTime, .appleStandHour,
                                 .appleWalkingSteadiness, .atrialFibrillationBurden, .lowHeartRateEvent, .bloodPressure, .food] {
            #expect(TypeCatalogue.descriptor(for: type)?.canShare == false, "\(type)")
        }
        for type: ObjectType in [.stepCount, .bloodGlucose, .dietaryWater, .menstrualFlow, .headache, .workout] {
            #expect(TypeCatalogue.descriptor(for: type)?.canShare == true, "\(type)")
        }
    }

    @Test func valueSets() {
        #expect(TypeCatalogue.categoryValues(of: .sleepAnalysis).map(\.name) == ["inBed", "asleepUnspecified", "awake", "asleepCore", "asleepDeep", "asleepREM"])
        #expect(TypeCatalogue.categoryValues(of: .sleepAnalysis).map(\.value) == [0, 1, 2, 3, 4, 5])
        #expect(TypeCatalogue.categoryValues(of: .menstrualFlow).first == CategoryValueName("unspecified", 1))
        #expect(TypeCatalogue.categoryValues(of: .stepCount).isEmpty)
        #expect(TypeCatalogue.all.filter { $0.kind == .category }.allSatisfy { !TypeCatalogue.categoryValues(of: $0.type).isEmpty })
        #expect(TypeCatalogue.characteristicValues(of: .fitzpatrickSkinType) == ["notSet", "I", "II", "III", "IV", "V", "VI"])
        #expect(TypeCatalogue.characteristicValues(of: .dateOfBirth).isEmpty)
        #expect(TypeCatalogue.correlationMembers(of: .bloodPressure) == [.bloodPressureSystolic, .bloodPressureDiastolic])
        let food = TypeCatalogue.correlationMembers(of: .food)
        #expect(food.contains(.dietaryEnergyConsumed) && food.contains(.dietaryWater) && food.count >= 39)
        #expect(TypeCatalogue.workoutActivityTypes.contains("running") && TypeCatalogue.workoutActivityTypes.count >= 80)
    }

    @Test func lookUpFindsEveryIdentifierByItsBytes() {
        for descriptor in TypeCatalogue.all {
            var identifier = descriptor.type.identifier
            let found = identifier.withUTF8 { TypeCatalogue.index(ofUTF8: $0) }
            #expect(found == descriptor.type.catalogueIndex)
        }
        var missing = "HKQuantityTypeIdentifierStepCounT"
        #expect(missing.withUTF8 { TypeCatalogue.index(ofUTF8: $0) } == -1)
        var long = String(repeating: "x", count: 500)
        #expect(long.withUTF8 { TypeCatalogue.index(ofUTF8: $0) } == -1)
    }
}
