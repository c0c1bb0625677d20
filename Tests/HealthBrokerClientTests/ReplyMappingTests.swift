import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

@Suite("Request and reply mapping")
struct ReplyMappingTests {
    @Test func typesGoOnTheWireSortedByIdentifier() {
        let types: Set<ObjectType> = [.stepCount, .heartRate, .sleepAnalysis, .workout, .bodyMass, .dateOfBirth]
        #expect(types.wireOrder.map(\.identifier) == [
            "HKCategoryTypeIdentifierSleepAnalysis",
            "HKCharacteristicTypeIdentifierDateOfBirth",
            "HKQuantityTypeIdentifierBodyMass",
            "HKQuantityTypeIdentifierHeartRate",
            "HKQuantityTypeIdentifierStepCount",
            "HKWorkoutTypeIdentifier",
        ])
        #expect(Set<ObjectType>().wireOrder.isEmpty)
    }

    @Test func sampleDatesAreTheWireMicroseconds() {
        let dates = HealthStore.sampleDates([
            .stepCount: 1_700_000_000_000_000,
            .heartRate: 1_600_000_000_500_000,
        ])
        #expect(dates == [
            .stepCount: Date(timeIntervalSince1970: 1_700_000_000),
            .heartRate: Date(timeIntervalSince1970: 1_600_000_000.5),
        ])
        #expect(HealthStore.sampleDates([:]).isEmpty)
    }

    @Test func characteristicsKeepOnlyTypesWithAValue() {
        let values = HealthStore.characteristicValues([
            CharacteristicValue(type: .dateOfBirth, value: "1990-04-01"),
            CharacteristicValue(type: .biologicalSex, value: nil),
            CharacteristicValue(type: .bloodType, value: "A+"),
        ])
        #expect(values == [.dateOfBirth: "1990-04-01", .bloodType: "A+"])
        #expect(HealthStore.characteristicValues([]).isEmpty)
        #expect(HealthStore.characteristicValues([CharacteristicValue(type: .bloodType, value: nil)]).isEmpty)
    }

    @Test func anEmptyValueIsStillAValue() {
        let values = HealthStore.characteristicValues([CharacteristicValue(type: .biologicalSex, value: "")])
        #expect(values == [.biologicalSex: ""])
    }
}
