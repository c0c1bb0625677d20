import BrokerModel
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Issue 18 item 4: a phone and a watch both count one walk; the day's total is the first
/// source's, by the order the person sets, and a read-denied app's statistics stay its own.
@Suite("Source priority")
struct SourcePriorityTests {
    static let watchID = "com.example.prio.watch"
    static let phoneID = "com.example.prio.phone"
    static let deniedID = "com.example.prio.denied"

    /// The denied app may share steps but read nothing of others; the rest read everything.
    static let policy = """
        { "rules": [
          { "app": "\(deniedID)", "share": "allow", "read": "deny" },
          { "app": "*", "share": "allow", "read": "full" }
        ] }
        """

    static let day: Int64 = 24 * hour
    static let dailyQuery = StatisticsQuery(
        type: .stepCount, predicate: SamplePredicate(startMicros: base, endMicros: base + day), options: .sum,
        interval: .day, anchorMicros: base, timeZone: "UTC")
    static let hourlyQuery = StatisticsQuery(
        type: .stepCount, predicate: SamplePredicate(startMicros: base, endMicros: base + day), options: .sum,
        interval: .hour, anchorMicros: base, timeZone: "UTC")

    /// The denied app's own samples: part of the walk's hour, and an evening walk nobody else saw.
    static func deniedSamples() -> [Sample] {
        [stepSample(base + 10 * hour, base + 10 * hour + hour / 2, 777, uuid: "8d4b1c7e-0000-4000-8000-000000000001"),
         stepSample(base + 20 * hour, base + 21 * hour, 50, uuid: "8d4b1c7e-0000-4000-8000-000000000002")]
    }

    @Test func theDailyTotalIsTheWatchsOrThePhonesByTheOrderSet() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let watch = try await authorizedApp(daemon, Self.watchID, types: [.stepCount])
        defer { watch.close() }
        let phone = try await authorizedApp(daemon, Self.phoneID, types: [.stepCount])
        defer { phone.close() }
        let denied = try await authorizedApp(daemon, Self.deniedID, types: [.stepCount])
        defer { denied.close() }
        // One walk from 10:00 to 11:00: the watch counts 5,000 steps, the phone 4,600; the phone
        // also counts a stroll at 14:00 the watch did not see.
        _ = try await watch.save([stepSample(base + 10 * hour, base + 11 * hour, 5_000)])
        _ = try await phone.save([stepSample(base + 10 * hour, base + 11 * hour, 4_600), stepSample(base + 14 * hour, base + 15 * hour, 300)])
        _ = try await denied.save(Self.deniedSamples())

        // The watch first (healthctl): the walk counts once, as the watch's.
        let set = try await PersonViewTests.healthctl(daemon, ["sources", "priority", "stepCount", Self.watchID, Self.phoneID])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains("1. \(Self.watchID)") && set.output.contains("2. \(Self.phoneID)"), "\(set.output)")
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.sourcePriority(for: .stepCount) == [Self.watchID, Self.phoneID])
        // The denied app is listed nowhere, so it ranks last; its walk-hour sample is covered and
        // its evening walk counts: 5,000 + 300 + 50.
        #expect(try await admin.statistics(Self.dailyQuery).buckets.map(\.sum) == [5_350])
        #expect(try await phone.statistics(Self.dailyQuery).buckets.map(\.sum) == [5_350])
        #expect(try await watch.statistics(Self.hourlyQuery).buckets.map(\.sum) == [5_000, 300, 50])
        // Sample queries still return every sample.
        var all: [Sample] = []
        for try await sample in phone.samples(of: .stepCount) { all.append(sample) }
        #expect(all.count == 5)

        // The person puts the phone first (the admin client): the phone's.
        try await admin.setSourcePriority([Self.phoneID, Self.watchID], for: .stepCount)
        #expect(try await admin.statistics(Self.dailyQuery).buckets.map(\.sum) == [4_950])
        #expect(try await watch.statistics(Self.dailyQuery).buckets.map(\.sum) == [4_950])
        let shown = try await PersonViewTests.healthctl(daemon, ["sources", "priority", "stepCount", "--json"])
        #expect(shown.status == 0, "\(shown.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        #expect(object["app_ids"] as? [String] == [Self.phoneID, Self.watchID])
        #expect(object["type"] as? String == ObjectType.stepCount.identifier)

        // The read-denied app: only its own samples, merged with nothing.
        let crowded = try await denied.statistics(Self.hourlyQuery)
        #expect(crowded.buckets.map(\.sum) == [777, 50])
        // The same reply as from a store where it is alone.
        let lone = try await DaemonProcess(policy: Self.policy)
        let alone = try await authorizedApp(lone, Self.deniedID, types: [.stepCount])
        defer { alone.close() }
        _ = try await alone.save(Self.deniedSamples())
        #expect(try await alone.statistics(Self.hourlyQuery) == crowded)
        #expect(try await alone.statistics(Self.dailyQuery) == denied.statistics(Self.dailyQuery))

        // --clear: no order, so by app id (com.example.prio.denied, .phone, .watch): the denied
        // app's half hour counts pro rata from the others' samples.
        let cleared = try await PersonViewTests.healthctl(daemon, ["sources", "priority", "stepCount", "--clear"])
        #expect(cleared.status == 0, "\(cleared.errors)")
        #expect(cleared.output.contains("no source order set"), "\(cleared.output)")
        // 777 + 50 + phone: 4,600 × ½ + 300 = 2,600 → 3,427.
        #expect(try await admin.statistics(Self.dailyQuery).buckets.map(\.sum) == [3_427])
        // A discrete type is never merged: the average is over every source's samples.
        let heartWatch = try await authorizedApp(daemon, Self.watchID + ".hr", types: [.heartRate])
        defer { heartWatch.close() }
        let heartPhone = try await authorizedApp(daemon, Self.phoneID + ".hr", types: [.heartRate])
        defer { heartPhone.close() }
        try await admin.setSourcePriority([Self.watchID + ".hr"], for: .heartRate)
        _ = try await heartWatch.save([Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: base + 10 * hour, endMicros: base + 11 * hour, value: .quantity(Quantity(100, "count/min")))])
        _ = try await heartPhone.save([Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: base + 10 * hour, endMicros: base + 11 * hour, value: .quantity(Quantity(80, "count/min")))])
        let heart = try await admin.statistics(StatisticsQuery(
            type: .heartRate, predicate: SamplePredicate(startMicros: base, endMicros: base + Self.day), options: .average))
        #expect(heart.buckets.map(\.average) == [90])
        // An unknown type is refused.
        let wrong = try await PersonViewTests.healthctl(daemon, ["sources", "priority", "stepz"])
        #expect(wrong.status != 0)
    }
}
