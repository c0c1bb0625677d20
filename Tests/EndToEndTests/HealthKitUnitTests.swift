import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// HealthKit unit strings over the socket: saved in any unit of the type's dimension, stored in the
/// type's canonical unit, read back in whichever unit the caller asks for.
@Suite("HealthKit units")
struct HealthKitUnitTests {
    static func glucose(_ value: Double, _ unit: String, at start: Int64) -> Sample {
        Sample(uuid: UUID().uuidString.lowercased(), type: .bloodGlucose, startMicros: start, endMicros: start,
               value: .quantity(Quantity(value, unit)))
    }

    @Test func bloodGlucoseSavedInMillimolesReadsBackInMilligramsPerDecilitre() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.glucose", types: [.bloodGlucose, .bodyTemperature])
        defer { store.close() }
        _ = try await store.save([
            Self.glucose(5.5, "mmol/L", at: base),
            Self.glucose(6.0, "mmol<180.15588>/L", at: base + hour),
            Self.glucose(90, "mg/dL", at: base + 2 * hour),
        ])
        // Default: the canonical unit, mg/dL.
        let stored = try await collect(store.samples(of: .bloodGlucose))
        let values = stored.compactMap { sample -> Quantity? in
            if case .quantity(let quantity) = sample.value { quantity } else { nil }
        }
        #expect(values.map(\.unit) == ["mg/dL", "mg/dL", "mg/dL"])
        #expect(values.map { ($0.value * 100).rounded() / 100 } == [99.09, 108.09, 90])
        // Asked in mmol/L, the same values come back as saved.
        let inMillimoles = try await collect(store.samples(of: .bloodGlucose, unit: "mmol/L"))
        let millimoles = inMillimoles.compactMap { sample -> Double? in
            if case .quantity(let quantity) = sample.value, quantity.unit == "mmol/L" { quantity.value } else { nil }
        }
        #expect(millimoles.count == 3)
        #expect(zip(millimoles, [5.5, 6.0, 90 / 18.015588]).allSatisfy { abs($0 - $1) < 1e-9 })
        // Statistics in either unit.
        let query = StatisticsQuery(type: .bloodGlucose, predicate: .all, options: [.average, .maximum])
        let inMilligrams = try await store.statistics(query)
        #expect(inMilligrams.unit == "mg/dL")
        #expect(abs((inMilligrams.buckets.first?.maximum ?? 0) - 108.093528) < 1e-6)
        var millimolar = query
        millimolar.unit = "mmol<180.15588>/L"
        let result = try await store.statistics(millimolar)
        #expect(result.unit == "mmol<180.15588>/L")
        #expect(abs((result.buckets.first?.maximum ?? 0) - 6.0) < 1e-9)
    }

    @Test func aUnitOfAnotherDimensionIsInvalidArgumentNamingUnitAndType() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.units", types: [.bloodGlucose, .bodyTemperature])
        defer { store.close() }
        let save = await #expect(throws: BrokerError.self) {
            _ = try await store.save([Self.glucose(5.5, "mmHg", at: base)])
        }
        #expect(save?.code == .invalidArgument)
        #expect(save?.message.contains("\"mmHg\" is a pressure unit") == true)
        #expect(save?.message.contains("HKQuantityTypeIdentifierBloodGlucose takes mass-per-volume units") == true)
        let query = await #expect(throws: BrokerError.self) {
            _ = try await collect(store.samples(of: .bloodGlucose, unit: "degC"))
        }
        #expect(query?.code == .invalidArgument)
        #expect(query?.message.contains("\"degC\"") == true)
        let garbage = await #expect(throws: BrokerError.self) {
            _ = try await store.statistics(StatisticsQuery(type: .bodyTemperature, predicate: .all, options: .average, unit: "degrees"))
        }
        #expect(garbage?.code == .invalidArgument)
        #expect(garbage?.message.contains("\"degrees\" is not a HealthKit unit string") == true)
        // The connection is still good.
        let temperature = Sample(uuid: UUID().uuidString.lowercased(), type: .bodyTemperature, startMicros: base, endMicros: base,
                                 value: .quantity(Quantity(98.6, "degF")))
        _ = try await store.save([temperature])
        let celsius = try await collect(store.samples(of: .bodyTemperature))
        guard case .quantity(let stored) = celsius.first?.value else { Issue.record("no temperature"); return }
        #expect(stored.unit == "degC")
        #expect(abs(stored.value - 37) < 1e-9)
    }

    /// A read-denied app's converted reads show only its own samples, as they do unconverted.
    @Test func aDeniedAppsConvertedReadsHoldOnlyItsOwnSamples() async throws {
        let policy = #"{ "rules": [ { "app": "com.example.other", "share": "allow", "read": "full" }, { "app": "com.example.denied", "share": "allow", "read": "deny" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let other = try await authorizedApp(daemon, "com.example.other", types: [.bloodGlucose])
        defer { other.close() }
        let denied = try await authorizedApp(daemon, "com.example.denied", types: [.bloodGlucose])
        defer { denied.close() }
        _ = try await other.save((0..<4).map { Self.glucose(10, "mmol/L", at: base + Int64($0) * hour) })
        let own = Self.glucose(5, "mmol/L", at: base + hour)
        _ = try await denied.save([own])
        let seen = try await collect(denied.samples(of: .bloodGlucose, unit: "mmol/L"))
        #expect(seen.map(\.uuid) == [own.uuid])
        let stats = try await denied.statistics(StatisticsQuery(type: .bloodGlucose, predicate: .all, options: [.average, .maximum], unit: "mmol/L"))
        #expect(stats.buckets.map(\.sampleCount) == [1])
        #expect(abs((stats.buckets.first?.maximum ?? 0) - 5) < 1e-9)
    }
}
