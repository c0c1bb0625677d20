import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Types of the whole HealthKit catalogue over the socket: characteristics with value sets, types
/// apps may only read, correlation types authorized through their members, new category types.
@Suite("Catalogue types")
struct CatalogueTypesTests {
    @Test func newCharacteristicsTakeTheirValueSets() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let admin = try await daemon.admin()
        try await admin.setCharacteristic(.fitzpatrickSkinType, value: "III")
        try await admin.setCharacteristic(.wheelchairUse, value: "no")
        try await admin.setCharacteristic(.activityMoveMode, value: "appleMoveTime")
        let bad = await #expect(throws: BrokerError.self) { try await admin.setCharacteristic(.fitzpatrickSkinType, value: "VII") }
        #expect(bad?.code == .invalidArgument)
        #expect(bad?.message == "fitzpatrick skin type must be one of I, II, III, IV, V, VI, notSet")
        let store = try await daemon.connectApp("com.example.profile")
        defer { store.close() }
        try await store.requestAuthorization(toShare: [], read: [.fitzpatrickSkinType, .wheelchairUse, .activityMoveMode], timeout: .seconds(10))
        let values = try await store.characteristics([.fitzpatrickSkinType, .wheelchairUse, .activityMoveMode])
        #expect(values == [.fitzpatrickSkinType: "III", .wheelchairUse: "no", .activityMoveMode: "appleMoveTime"])
    }

    @Test func readOnlyAndCorrelationTypesAreRefusedAtTheRequest() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await daemon.connectApp("com.example.types")
        defer { store.close() }
        let share = await #expect(throws: BrokerError.self) {
            try await store.requestAuthorization(toShare: [.appleExerciseTime], read: [], timeout: .seconds(10))
        }
        #expect(share?.code == .invalidArgument)
        #expect(share?.message.contains("apps may not share") == true)
        let correlation = await #expect(throws: BrokerError.self) {
            try await store.requestAuthorization(toShare: [], read: [.bloodPressure], timeout: .seconds(10))
        }
        #expect(correlation?.code == .invalidArgument)
        #expect(correlation?.message.contains("member types") == true)
        // Its members are ordinary quantity types, and a category type of the new catalogue saves and reads back.
        try await store.requestAuthorization(toShare: [.bloodPressureSystolic, .menstrualFlow], read: [.bloodPressureSystolic, .menstrualFlow, .appleExerciseTime], timeout: .seconds(10))
        let systolic = Sample(uuid: UUID().uuidString.lowercased(), type: .bloodPressureSystolic, startMicros: base, endMicros: base,
                              value: .quantity(Quantity(16, "kPa")))
        let flow = Sample(uuid: UUID().uuidString.lowercased(), type: .menstrualFlow, startMicros: base, endMicros: base + hour, value: .category(3))
        _ = try await store.save([systolic, flow])
        let pressures = try await collect(store.samples(of: .bloodPressureSystolic))
        guard case .quantity(let pressure) = pressures.first?.value else { Issue.record("no pressure"); return }
        #expect(pressure.unit == "mmHg")
        #expect(abs(pressure.value - 120.0099) < 1e-3)
        #expect(try await collect(store.samples(of: .menstrualFlow)).map(\.value) == [.category(3)])
    }

    @Test func aCategoryValueOutsideTheTypesSetIsRefusedNamingTheValues() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await daemon.connectApp("com.example.sleep")
        defer { store.close() }
        try await store.requestAuthorization(toShare: [.sleepAnalysis], read: [.sleepAnalysis], timeout: .seconds(10))
        let good = Sample(uuid: UUID().uuidString.lowercased(), type: .sleepAnalysis, startMicros: base, endMicros: base + hour, value: .category(5))
        let bad = Sample(uuid: UUID().uuidString.lowercased(), type: .sleepAnalysis, startMicros: base, endMicros: base + hour, value: .category(9))
        let error = await #expect(throws: BrokerError.self) { try await store.save([good, bad]) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "samples[1]: category value is not one of HKCategoryTypeIdentifierSleepAnalysis's values: "
                + "inBed (0), asleepUnspecified (1), awake (2), asleepCore (3), asleepDeep (4), asleepREM (5)")
        // All or nothing: the good sample of the refused batch was not stored either; alone it saves.
        #expect(try await collect(store.samples(of: .sleepAnalysis)).isEmpty)
        #expect(try await store.save([good]).saved == 1)
    }
}
