import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// AdminStoreInfo through the real daemon: the client method and `healthctl call` (no command of
/// its own) report the same store, and its counts follow saves, deletes and registrations.
@Suite("AdminStoreInfo")
struct AdminStoreInfoTests {
    @Test func theClientAndHealthctlCallReportTheStore() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--max-db-pages", "100000"], policy: allowAll)
        let admin = try await daemon.admin()
        defer { admin.close() }
        let empty = try await admin.storeInfo()
        #expect(empty.samples == 0 && empty.tombstones == 0 && empty.apps == 0)
        #expect(empty.schemaVersion > 0)
        #expect(empty.databaseBytes > 0)
        let cap = try #require(empty.maxDatabaseBytes)
        #expect(cap % 100_000 == 0 && cap / 100_000 >= 512)

        let store = try await authorizedApp(daemon, "com.example.info")
        defer { store.close() }
        let samples = (0..<5).map { stepSample(base + Int64($0) * hour, base + Int64($0) * hour + 1) }
        _ = try await store.save(samples)
        #expect(try await store.delete([samples[0].uuid]) == 1)

        let info = try await admin.storeInfo()
        #expect(info.apps == 1)
        #expect(info.samples == 4)
        #expect(info.tombstones == 1)
        #expect(info.maxDatabaseBytes == cap)
        #expect(info.schemaVersion == empty.schemaVersion)

        let call = try await SetGrantTests.healthctl(daemon, ["call", "AdminStoreInfo"])
        #expect(call.status == 0, "\(call.errors)")
        let printed = try Proto.AdminStoreInfoResponse(jsonText: call.output)
        #expect(printed.samples == 4)
        #expect(printed.tombstones == 1)
        #expect(printed.apps == 1)
        #expect(printed.schemaVersion == info.schemaVersion)
        #expect(printed.maxDatabaseBytes == cap)
        // 64-bit counts print as JSON strings (protobuf's JSON mapping).
        #expect(call.output.contains(#""samples": "4""#), "\(call.output)")
    }
}
