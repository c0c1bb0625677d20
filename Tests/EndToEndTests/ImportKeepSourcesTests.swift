import BrokerModel
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// `healthctl export` then `healthctl import --keep-sources` into another daemon: every sample
/// comes back under the app that saved it.
@Suite("Import keeping sources")
struct ImportKeepSourcesTests {
    static let firstID = "com.example.keep.first"
    static let secondID = "com.example.keep.second"

    /// Every stored sample as (uuid, source), sorted.
    static func stored(_ daemon: DaemonProcess) async throws -> [String] {
        let admin = try await daemon.admin()
        defer { admin.close() }
        return try await collect(admin.exportSamples()).map { "\($0.uuid) \($0.sourceAppID)" }.sorted()
    }

    @Test func eachSampleComesBackUnderItsOwnSource() async throws {
        let origin = try await DaemonProcess(policy: allowAll)
        let first = try await authorizedApp(origin, Self.firstID)
        defer { first.close() }
        let second = try await authorizedApp(origin, Self.secondID)
        defer { second.close() }
        _ = try await first.save([stepSample(base, base + hour), stepSample(base + hour, base + 2 * hour, 3)])
        _ = try await second.save([
            stepSample(base + 2 * hour, base + 3 * hour, 5),
            Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: base, endMicros: base,
                   value: .quantity(Quantity(61, "count/min"))),
        ])
        let exported = try await Self.stored(origin)
        #expect(exported.count == 4)
        #expect(exported.filter { $0.hasSuffix(Self.secondID) }.count == 2)
        let file = origin.directory + "/export.jsonl"
        let export = try await SetGrantTests.healthctl(origin, ["export", "--output", file])
        #expect(export.status == 0, "\(export.errors)")

        let target = try await DaemonProcess(policy: allowAll)
        _ = try await target.registerApp(Self.firstID)
        // The second source is not registered: nothing goes in, and the error names it.
        let refused = try await SetGrantTests.healthctl(target, ["import", file, "--keep-sources"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("not registered: \(Self.secondID)"), "\(refused.errors)")
        #expect(!refused.errors.contains(Self.firstID), "\(refused.errors)")
        #expect(try await Self.stored(target) == [])

        _ = try await target.registerApp(Self.secondID)
        let imported = try await SetGrantTests.healthctl(target, ["import", file, "--keep-sources", "--batch", "3"])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try await Self.stored(target) == exported)

        // Without --keep-sources everything goes under --app, as before.
        let plain = try await DaemonProcess(policy: allowAll)
        _ = try await plain.registerApp(Self.firstID)
        let single = try await SetGrantTests.healthctl(plain, ["import", file, "--app", Self.firstID])
        #expect(single.status == 0, "\(single.errors)")
        #expect(try await Self.stored(plain).allSatisfy { $0.hasSuffix(" \(Self.firstID)") })
    }
}
