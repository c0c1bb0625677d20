import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// The broker clamps every read to the app's scope, whatever the app asks for.
@Suite("Read clamp")
struct ClampTests {
    @Test func limitedAccessClampsOnTheEndDateInclusively() async throws {
        let boundary = base + 100 * hour
        let policy = #"{ "rules": [ { "app": "com.example.writer", "share": "allow", "read": "full" }, { "app": "com.example.limited", "read": "limited", "from": "\#(ISOText(boundary))" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let writer = try await authorizedApp(daemon, "com.example.writer", types: [.stepCount])
        defer { writer.close() }
        let crossing = stepSample(boundary - hour, boundary + hour)      // begins before B, ends after: in
        let endsAtBoundary = stepSample(boundary - hour, boundary)       // ends exactly at B: in
        let before = stepSample(boundary - 2 * hour, boundary - hour)    // ends before B: out
        _ = try await writer.save([crossing, endsAtBoundary, before])
        let reader = try await daemon.connectApp("com.example.limited")
        defer { reader.close() }
        try await reader.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(5))
        let seen = Set(try await collect(reader.samples(of: .stepCount)).map(\.uuid))
        #expect(seen == [crossing.uuid, endsAtBoundary.uuid])
        // An app that builds its predicate "wrong" (from long before B) still sees nothing earlier.
        let wide = SamplePredicate(startMicros: boundary - 1_000 * hour, endMicros: boundary + 1_000 * hour)
        #expect(Set(try await collect(reader.samples(of: .stepCount, predicate: wide)).map(\.uuid)) == seen)
    }

    @Test func aLimitedAppSyncsWhatItMaySeeAcrossManyPagesAndThenOnlyWhatChanged() async throws {
        let boundary = base + 100 * hour
        let policy = #"{ "rules": [ { "app": "com.example.writer", "share": "allow", "read": "full" }, { "app": "com.example.limited", "share": "allow", "read": "limited", "from": "\#(ISOText(boundary))" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let writer = try await authorizedApp(daemon, "com.example.writer", types: [.stepCount])
        defer { writer.close() }
        // 1,300 minutes after the floor (more than two 512-change items), 300 before it.
        let minute: Int64 = 60_000_000
        let after = (0..<1_300).map { stepSample(boundary + Int64($0) * minute, boundary + Int64($0) * minute + minute) }
        let before = (1...300).map { stepSample(boundary - Int64($0) * minute - minute, boundary - Int64($0) * minute - 1) }
        _ = try await writer.save(after + before)
        let reader = try await daemon.connectApp("com.example.limited")
        defer { reader.close() }
        try await reader.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(5))
        let own = stepSample(boundary - 50 * hour, boundary - 49 * hour)   // its own, before the floor: visible
        _ = try await reader.save([own])
        let first = try await reader.anchoredChanges(of: .stepCount)
        #expect(Set(first.added.map(\.uuid)) == Set((after + [own]).map(\.uuid)))
        #expect(first.added.count == after.count + 1)
        #expect(first.deleted.isEmpty)
        // Only what it may not see changes: nothing new, and the same anchor back.
        _ = try await writer.save([stepSample(boundary - 10 * hour, boundary - 9 * hour)])
        _ = try await writer.delete([before[0].uuid])
        let quiet = try await reader.anchoredChanges(of: .stepCount, anchor: first.newAnchor)
        #expect(quiet.added.isEmpty && quiet.deleted.isEmpty)
        #expect(quiet.newAnchor == first.newAnchor)
        // What it may see changes: exactly that, with the source of the deletion.
        let late = stepSample(boundary + 2_000 * minute, boundary + 2_001 * minute)
        _ = try await writer.save([late])
        _ = try await writer.delete([after[5].uuid])
        let changes = try await reader.anchoredChanges(of: .stepCount, anchor: quiet.newAnchor)
        #expect(changes.added.map(\.uuid) == [late.uuid])
        #expect(changes.deleted == [DeletedObject(uuid: after[5].uuid, sourceAppID: "com.example.writer")])
    }

    @Test func aDeniedAppSeesExactlyItsOwnSamples() async throws {
        let policy = #"{ "rules": [ { "app": "com.example.other", "share": "allow", "read": "full" }, { "app": "com.example.denied", "share": "allow", "read": "deny" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let other = try await authorizedApp(daemon, "com.example.other", types: [.stepCount])
        defer { other.close() }
        let denied = try await authorizedApp(daemon, "com.example.denied", types: [.stepCount])
        defer { denied.close() }
        _ = try await other.save((0..<5).map { stepSample(base + Int64($0) * hour, base + Int64($0) * hour + 1) })
        let own = (0..<3).map { stepSample(base + Int64($0) * hour, base + Int64($0) * hour + 2) }
        _ = try await denied.save(own)
        let seen = try await collect(denied.samples(of: .stepCount))
        #expect(Set(seen.map(\.uuid)) == Set(own.map(\.uuid)))
        #expect(seen.allSatisfy { $0.sourceAppID == "com.example.denied" })
        // Statistics are clamped the same way, and nothing says access was denied.
        let stats = try await denied.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum))
        #expect(stats.buckets.map(\.sampleCount) == [3])
        #expect(try await other.collectCount() == 8)
    }

    @Test func neverAskedIsNotDetermined() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.unasked")
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) { _ = try await collect(store.samples(of: .stepCount)) }
        #expect(error?.domain == .authorizationNotDetermined)
    }

    @Test func statisticsPerDayMatchASumComputedHere() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.stats")
        defer { store.close() }
        var samples: [Sample] = []
        var expected: [Int64: Double] = [:]
        let day: Int64 = 24 * hour
        for index in 0..<(3 * 24 * 4) {   // three days, every 15 minutes
            let start = base + Int64(index) * hour / 4
            let value = Double(index % 17 + 1)
            samples.append(stepSample(start, start + hour / 8, value))
            expected[(start - base) / day, default: 0] += value
        }
        _ = try await store.save(samples)
        let query = StatisticsQuery(type: .stepCount, predicate: SamplePredicate(startMicros: base, endMicros: base + 3 * day), options: .sum, interval: .day, anchorMicros: base, timeZone: "UTC")
        let result = try await store.statistics(query)
        #expect(result.unit == "count")
        #expect(result.buckets.map(\.startMicros) == [base, base + day, base + 2 * day])
        #expect(result.buckets.map(\.sum) == [expected[0], expected[1], expected[2]])
        let discrete = await #expect(throws: BrokerError.self) {
            _ = try await store.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .average))
        }
        #expect(discrete?.code == .invalidArgument)
        let empty = await #expect(throws: BrokerError.self) {
            _ = try await store.statistics(StatisticsQuery(type: .heartRate, predicate: .all, options: .average))
        }
        #expect(empty?.domain == .noData)
    }

    @Test func revokingReadMidSyncLeavesOnlyOwnSamples() async throws {
        let policy = #"{ "rules": [ { "app": "com.example.source", "share": "allow", "read": "full" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let other = try await authorizedApp(daemon, "com.example.source", types: [.stepCount])
        defer { other.close() }
        let minute: Int64 = 60_000_000
        _ = try await other.save((0..<3_000).map { stepSample(base + Int64($0) * minute, base + Int64($0) * minute + 1) })
        let credentials = try await daemon.registerApp("com.example.syncer")
        let reader = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.syncer", appToken: credentials.token)
        defer { reader.close() }
        async let asked: Void = reader.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        try await agent.answerAll(try await agent.prompt(0), share: .allow, read: .full)
        try await asked
        let own = stepSample(base + 5_000 * minute, base + 5_000 * minute + 1)   // sorts after every other sample
        _ = try await reader.save([own])

        var seen: [Sample] = []
        var endedEarly = false
        do {
            for try await sample in reader.samples(of: .stepCount, pageSize: 100) {
                seen.append(sample)
            if seen.count == 150 {
                // The person takes read access away mid-stream: revoke, then deny when asked again.
                _ = try await agent.admin.revoke(appID: "com.example.syncer", types: [.stepCount])
                let second = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.syncer", appToken: credentials.token)
                async let again: Void = second.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
                try await agent.answerAll(try await agent.prompt(1), share: .allow, read: .deny)
                    try await again
                    second.close()
                }
            }
        } catch let error as BrokerError {
            // A page fetched between the revocation and the new answer found the type not determined.
            #expect(error.domain == .authorizationNotDetermined)
            endedEarly = true
        }
        let others = seen.filter { $0.sourceAppID != "com.example.syncer" }
        // Pages already granted before the change may arrive; nothing after them does.
        #expect(others.count < 1_000)
        if !endedEarly { #expect(seen.last?.uuid == own.uuid) }
        // A fresh query shows the new scope: only the app's own sample.
        #expect(try await reader.collectCount() == 1)
    }
}

/// ISO-8601 text of an instant in µs.
func ISOText(_ micros: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
}

extension HealthStore {
    /// How many step samples the app can read.
    func collectCount() async throws -> Int { try await collect(samples(of: .stepCount)).count }
}
