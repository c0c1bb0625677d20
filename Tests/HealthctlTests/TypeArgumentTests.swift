import BrokerModel
import CommandLineSupport
@testable import healthctl
import Testing

@Suite struct TypeArgumentTests {
    @Test func aliasesDropTheIdentifierPrefix() {
        #expect(TypeArgument.alias(of: .stepCount) == "stepCount")
        #expect(TypeArgument.alias(of: .heartRate) == "heartRate")
        #expect(TypeArgument.alias(of: .sleepAnalysis) == "sleepAnalysis")
        #expect(TypeArgument.alias(of: .dateOfBirth) == "dateOfBirth")
        #expect(TypeArgument.alias(of: .workout) == "workout")
    }

    @Test func everyCataloguedTypeHasADistinctAlias() {
        let aliases = TypeCatalogue.all.map { TypeArgument.alias(of: $0.type).lowercased() }
        #expect(Set(aliases).count == TypeCatalogue.all.count)
        for descriptor in TypeCatalogue.all {
            #expect(TypeArgument.lookUp(TypeArgument.alias(of: descriptor.type)) == descriptor.type)
            #expect(TypeArgument.lookUp(descriptor.type.identifier) == descriptor.type)
        }
    }

    @Test(arguments: [
        ("stepCount", ObjectType.stepCount), ("STEPCOUNT", .stepCount), ("heartrate", .heartRate),
        ("HKQuantityTypeIdentifierHeartRate", .heartRate), ("hkquantitytypeidentifierheartrate", .heartRate),
        ("dateOfBirth", .dateOfBirth), ("HKCharacteristicTypeIdentifierBloodType", .bloodType),
        ("workout", .workout), ("Workout", .workout), ("HKWorkoutTypeIdentifier", .workout),
        ("sleepanalysis", .sleepAnalysis),
    ])
    func resolvesIdentifiersAndAliasesInAnyCase(text: String, type: ObjectType) throws {
        #expect(try TypeArgument.resolve(text) == type)
    }

    @Test func unknownTypesAreUsageErrorsHintingAtTheCatalogue() {
        let error = #expect(throws: ArgumentError.self) { _ = try TypeArgument.resolve("steps", command: "healthctl revoke") }
        #expect(error?.kind == .invalidValue)
        #expect(error?.command == "healthctl revoke")
        #expect(error?.message.hasPrefix("unknown type 'steps'") == true)
        #expect(error?.message.contains("'healthctl types'") == true)
    }

    @Test func unknownTypesSuggestAliasesThatContainThem() {
        #expect(TypeArgument.suggestions(for: "heart") == ["heartRate", "heartRateVariabilitySDNN", "heartRateRecoveryOneMinute", "heartburn", "restingHeartRate"])
        #expect(TypeArgument.suggestions(for: "steps") == ["stepCount"])
        #expect(TypeArgument.suggestions(for: "zzz").isEmpty)
        #expect(TypeArgument.suggestions(for: "").isEmpty)
        let error = TypeArgument.unknown("heart", command: "")
        #expect(error.message == "unknown type 'heart' (did you mean heartRate, heartRateVariabilitySDNN, heartRateRecoveryOneMinute, heartburn, restingHeartRate?); 'healthctl types' lists the known types")
    }

    @Test func identifiersOutsideTheCatalogueAreUnknown() {
        #expect(TypeArgument.lookUp("HKQuantityTypeIdentifierBloodSugarLevel") == nil)
        #expect(TypeArgument.lookUp("bloodGlucose") == .bloodGlucose)
        #expect(TypeArgument.lookUp("") == nil)
        #expect(TypeArgument.lookUp("HKQuantityTypeIdentifier") == nil)
    }

    @Test func resolveAllKeepsOrderAndDropsRepeats() throws {
        let types = try TypeArgument.resolveAll(["heartRate", "stepCount", "HKQuantityTypeIdentifierHeartRate"])
        #expect(types == [.heartRate, .stepCount])
        #expect(try TypeArgument.resolveAll([]).isEmpty)
    }
}
