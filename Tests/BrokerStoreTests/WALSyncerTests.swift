import BrokerModel
@testable import BrokerStore
import Foundation
import Testing

@Suite("WAL syncer")
struct WALSyncerTests {
    @Test func aResultThatSawNoUnsyncedCommitIsReleasedAtOnceWithoutAnFsync() {
        let disk = FakeDisk()
        let syncer = WALSyncer { () throws(BrokerError) in try disk.sync() }
        syncer.start()
        defer { syncer.stop() }
        let events = Events()
        syncer.deliver(afterCommit: 0, events.delivery("read"))
        #expect(events.list == ["read released"], "released on the calling thread, before deliver returned")
        #expect(disk.started == 0)
    }

    @Test func aResultWaitsForAnFsyncThatBeganAfterItsCommit() {
        let disk = FakeDisk(holding: true)
        let syncer = WALSyncer { () throws(BrokerError) in try disk.sync() }
        syncer.start()
        defer { syncer.stop() }
        let events = Events()
        syncer.deliver(afterCommit: 1, events.delivery("save 1"))
        disk.waitUntilStarted(1)
        // Commit 2 lands while the fsync for commit 1 is under way: that fsync does not cover it.
        syncer.deliver(afterCommit: 2, events.delivery("save 2"))
        #expect(events.list.isEmpty)
        disk.finishOne()
        events.waitFor(count: 1)
        #expect(events.list == ["save 1 released"])
        disk.waitUntilStarted(2)
        #expect(events.list == ["save 1 released"], "save 2 waits for the second fsync")
        disk.finishOne()
        events.waitFor(count: 2)
        #expect(events.list == ["save 1 released", "save 2 released"])
        // Everything up to commit 2 is durable now: a read that saw it needs no fsync of its own.
        syncer.deliver(afterCommit: 2, events.delivery("read"))
        #expect(events.list.last == "read released")
        #expect(disk.started == 2)
    }

    @Test func commitsThatLandDuringAnFsyncShareTheNextOne() {
        let disk = FakeDisk(holding: true)
        let syncer = WALSyncer { () throws(BrokerError) in try disk.sync() }
        syncer.start()
        defer { syncer.stop() }
        let events = Events()
        syncer.deliver(afterCommit: 1, events.delivery("a"))
        disk.waitUntilStarted(1)
        for commit in 2...6 { syncer.deliver(afterCommit: UInt64(commit), events.delivery("\(commit)")) }
        disk.finishOne()
        disk.waitUntilStarted(2)
        disk.finishOne()
        events.waitFor(count: 6)
        #expect(disk.started == 2)
        #expect(syncer.completedSyncs == 2)
        #expect(Set(events.list) == Set(["a released"] + (2...6).map { "\($0) released" }))
    }

    @Test func aFailedFsyncFailsWhatWaitsAndEveryLaterResultThatSawACommit() {
        let disk = FakeDisk(failing: true)
        let syncer = WALSyncer { () throws(BrokerError) in try disk.sync() }
        syncer.start()
        defer { syncer.stop() }
        let events = Events()
        syncer.deliver(afterCommit: 1, events.delivery("save 1"))
        events.waitFor(count: 1)
        // A later fsync could report success for a WAL whose earlier frames never reached the disk.
        disk.failing = false
        syncer.deliver(afterCommit: 2, events.delivery("save 2"))
        syncer.deliver(afterCommit: 0, events.delivery("read of nothing new"))
        events.waitFor(count: 3)
        #expect(events.list == ["save 1 failed DATA_LOSS", "save 2 failed DATA_LOSS", "read of nothing new released"])
        #expect(disk.started == 1)
    }

    @Test func stopReleasesWhatWaitsAndLaterResultsSyncOnTheCallersThread() {
        let disk = FakeDisk()
        let syncer = WALSyncer { () throws(BrokerError) in try disk.sync() }
        syncer.start()
        let events = Events()
        syncer.deliver(afterCommit: 1, events.delivery("save 1"))
        syncer.stop()
        #expect(events.list == ["save 1 released"])
        syncer.deliver(afterCommit: 2, events.delivery("save 2"))
        #expect(events.list == ["save 1 released", "save 2 released"])
        #expect(disk.started == 2)
    }

    @Test func theStoreCountsCommitsThatWroteAndTheSyncerFsyncsItsRealWAL() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        _ = try store.saveSamples([Fixture.steps(1, Fixture.base, Fixture.base + Fixture.minute)], sourceAppID: Fixture.app, now: 1)
        let before = store.commits
        _ = try store.saveSamples([Fixture.steps(2, Fixture.base, Fixture.base + Fixture.minute)], sourceAppID: Fixture.app, now: 2)
        #expect(store.commits == before + 1, "a save of a known app's samples is one transaction")
        _ = try store.listApps()
        _ = try Fixture.readAll(store)
        #expect(store.commits == before + 1, "reads commit nothing")

        let syncer = store.makeWALSyncer()
        syncer.start()
        let events = Events()
        syncer.deliver(afterCommit: store.commits, events.delivery("save"))
        events.waitFor(count: 1)
        syncer.stop()
        #expect(events.list == ["save released"])
        #expect(syncer.completedSyncs == 1)
    }

    @Test func aMissingWALFailsWithDataLossRatherThanReleasing() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let syncer = WALSyncer(databasePath: directory.child("absent.sqlite3"))
        let events = Events()
        syncer.deliver(afterCommit: 1, events.delivery("save"))
        #expect(events.list == ["save failed DATA_LOSS"])
    }
}

/// A stand-in for the disk: counts fsyncs, and can hold each one until the test lets it finish, or fail it.
private final class FakeDisk: @unchecked Sendable {
    private let condition = NSCondition()
    private let holding: Bool
    private var startedCount = 0
    private var finishes = 0
    private var failingNow: Bool

    init(holding: Bool = false, failing: Bool = false) {
        self.holding = holding
        self.failingNow = failing
    }

    var started: Int { condition.withLock { startedCount } }

    var failing: Bool {
        get { condition.withLock { failingNow } }
        set { condition.withLock { failingNow = newValue } }
    }

    func sync() throws(BrokerError) {
        condition.lock()
        startedCount += 1
        condition.broadcast()
        if holding {
            while finishes < startedCount { condition.wait() }
        }
        let fail = failingNow
        condition.unlock()
        if fail { throw BrokerError.databaseInaccessible("EIO") }
    }

    func waitUntilStarted(_ count: Int) {
        condition.lock()
        while startedCount < count { condition.wait() }
        condition.unlock()
    }

    func finishOne() {
        condition.withLock {
            finishes += 1
            condition.broadcast()
        }
    }
}

/// What the deliveries reported, in order.
private final class Events: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [String] = []

    var list: [String] { condition.withLock { entries } }

    func delivery(_ name: String) -> WALSyncer.Delivery {
        WALSyncer.Delivery(
            release: { self.record("\(name) released") },
            fail: { self.record("\(name) failed \($0.code)") }
        )
    }

    func waitFor(count: Int) {
        condition.lock()
        let deadline = Date().addingTimeInterval(10)
        while entries.count < count, condition.wait(until: deadline) {}
        condition.unlock()
    }

    private func record(_ entry: String) {
        condition.withLock {
            entries.append(entry)
            condition.broadcast()
        }
    }
}
