import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Anchored queries, observers, and durability across kill -9.
@Suite("Sync")
struct SyncTests {
    @Test func anchoredQueriesReportAddsAndDeletionsOnce() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.sync")
        defer { store.close() }
        let first = [stepSample(base, base + hour), stepSample(base + hour, base + 2 * hour)]
        _ = try await store.save(first)
        let initial = try await store.anchoredChanges(of: .stepCount)
        #expect(Set(initial.added.map(\.uuid)) == Set(first.map(\.uuid)))
        #expect(initial.deletedUUIDs.isEmpty)
        // No changes: empty, with an anchor that still works.
        let quiet = try await store.anchoredChanges(of: .stepCount, anchor: initial.newAnchor)
        #expect(quiet.added.isEmpty && quiet.deletedUUIDs.isEmpty)
        let added = stepSample(base + 2 * hour, base + 3 * hour)
        _ = try await store.save([added])
        _ = try await store.delete([first[0].uuid])
        let changes = try await store.anchoredChanges(of: .stepCount, anchor: quiet.newAnchor)
        #expect(changes.added.map(\.uuid) == [added.uuid])
        #expect(changes.deletedUUIDs == [first[0].uuid])
        let after = try await store.anchoredChanges(of: .stepCount, anchor: changes.newAnchor)
        #expect(after.added.isEmpty && after.deletedUUIDs.isEmpty)   // the deletion shows up once
    }

    @Test func forgedAndForeignAnchorsAreRefused() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let mine = try await authorizedApp(daemon, "com.example.mine")
        defer { mine.close() }
        let theirs = try await authorizedApp(daemon, "com.example.theirs")
        defer { theirs.close() }
        _ = try await mine.save([stepSample(base, base + hour)])
        let anchor = try await mine.anchoredChanges(of: .stepCount).newAnchor
        var bytes = Array(Data(base64Encoded: anchor.base64)!)
        bytes[bytes.count - 1] ^= 1
        let forged = QueryAnchor(base64: Data(bytes).base64EncodedString())!
        let forgedError = await #expect(throws: BrokerError.self) { _ = try await mine.anchoredChanges(of: .stepCount, anchor: forged) }
        #expect(forgedError?.code == .invalidArgument)
        let foreign = await #expect(throws: BrokerError.self) { _ = try await theirs.anchoredChanges(of: .stepCount, anchor: anchor) }
        #expect(foreign?.code == .invalidArgument)
        let otherType = await #expect(throws: BrokerError.self) { _ = try await mine.anchoredChanges(of: .heartRate, anchor: anchor) }
        #expect(otherType?.code == .invalidArgument)
    }

    @Test func anAnchorOlderThanTheRememberedDeletionsIsExpired() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let credentials = try await daemon.registerApp("com.example.stale")
        var store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.stale", appToken: credentials.token)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(5))
        let doomed = stepSample(base, base + hour)
        _ = try await store.save([doomed])
        let anchor = try await store.anchoredChanges(of: .stepCount).newAnchor
        _ = try await store.delete([doomed.uuid])
        store.close()
        // Restart with no tombstone retention: the deletion the anchor needs is forgotten.
        try await daemon.stop()
        try await daemon.start(arguments: ["--tombstone-retention-days", "0"])
        store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.stale", appToken: credentials.token)
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) { _ = try await store.anchoredChanges(of: .stepCount, anchor: anchor) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.domain == .anchorExpired)
        // Starting over without an anchor works.
        #expect(try await store.anchoredChanges(of: .stepCount).added.isEmpty)
    }

    @Test func observeFiresOnlyForChangesTheAppMayRead() async throws {
        let policy = #"{ "rules": [ { "app": "com.example.watcher", "share": "allow", "read": "deny" }, { "app": "*", "share": "allow", "read": "full" } ] }"#
        let daemon = try await DaemonProcess(policy: policy)
        let watcher = try await authorizedApp(daemon, "com.example.watcher", types: [.stepCount, .heartRate])
        defer { watcher.close() }
        let writer = try await authorizedApp(daemon, "com.example.writer2", types: [.stepCount, .heartRate])
        defer { writer.close() }
        let events = OrderLog()
        let task = Task {
            for try await change in watcher.observe([.stepCount, .heartRate]) { events.append(change.type.identifier) }
        }
        try await Task.sleep(for: .milliseconds(100))
        _ = try await writer.save([stepSample(base, base + hour)])        // the watcher may not read others' steps
        try await Task.sleep(for: .milliseconds(200))
        #expect(events.entries.isEmpty)
        _ = try await watcher.save([stepSample(base, base + hour)])       // its own samples it may always read
        try await waitUntil { events.entries == [ObjectType.stepCount.identifier] }
        task.cancel()
    }

    @Test func acknowledgedSavesSurviveKillNine() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let credentials = try await daemon.registerApp("com.example.durable2")
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.durable2", appToken: credentials.token)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(5))
        var acknowledged: [[String]] = []
        for batch in 0..<20 {
            let samples = (0..<200).map { stepSample(base + Int64(batch * 200 + $0) * 1_000_000, base + Int64(batch * 200 + $0) * 1_000_000 + 1) }
            _ = try await store.save(samples)
            acknowledged.append(samples.map(\.uuid))
        }
        // One more batch in flight while the daemon dies.
        let inFlight = (0..<200).map { stepSample(base + hour + Int64($0), base + hour + Int64($0) + 1) }
        let pending = Task { try? await store.save(inFlight) }
        try await daemon.stop(signal: SIGKILL)
        _ = await pending.value
        store.close()
        try await daemon.start()
        let reopened = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.durable2", appToken: credentials.token)
        defer { reopened.close() }
        let present = Set(try await collect(reopened.samples(of: .stepCount)).map(\.uuid))
        for batch in acknowledged { #expect(batch.allSatisfy(present.contains)) }
        let inFlightPresent = inFlight.filter { present.contains($0.uuid) }.count
        #expect(inFlightPresent == 0 || inFlightPresent == inFlight.count)   // never half a batch
    }
}
