import BrokerModel
import BrokerStore
import Testing

/// `BrokerStore.info()` (AdminStoreInfo): the file's sizes and the counts follow what the store holds.
@Suite("BrokerStore info")
struct StoreInfoTests {
    typealias F = Fixture

    @Test func anEmptyStoreHasItsSchemaAndNothingInIt() throws {
        try F.withStore { store, _ throws in
            let info = try store.info()
            #expect(Int64(info.schemaVersion) == BrokerSchema.migrations.latestVersion)
            #expect(info.databaseBytes > 0)
            #expect(info.databaseBytes % 512 == 0)
            #expect(info.freeBytes < info.databaseBytes)
            #expect(info.maxDatabaseBytes == nil)
            #expect(info.samples == 0)
            #expect(info.tombstones == 0)
            #expect(info.apps == 0)
        }
    }

    @Test func countsSamplesTombstonesAndAppsAndReportsTheCap() throws {
        try F.withStore { store, _ throws in
            _ = try store.addApp(AppRegistration(appID: F.app, name: "Writer"), tokenHash: [1], now: 1)
            _ = try store.addApp(AppRegistration(appID: F.other, name: "Other"), tokenHash: [2], now: 1)
            let before = try store.info()
            _ = try store.saveSamples(
                (1...300).map { F.steps($0, F.base + Int64($0) * F.minute, F.base + Int64($0) * F.minute + 1) },
                sourceAppID: F.app, now: 2)
            _ = try store.saveSamples([F.steps(1_000, F.base, F.base + 1)], sourceAppID: F.other, now: 2)
            _ = try store.deleteSamples(uuids: [F.uuid(1), F.uuid(2)], appID: F.app, now: 3)
            let info = try store.info()
            #expect(info.apps == 2)
            #expect(info.samples == 299)
            #expect(info.tombstones == 2)
            // 300 rows do not fit the pages an empty store has: the file (or its WAL, not yet
            // checkpointed) grew.
            #expect(info.databaseBytes + info.walBytes > before.databaseBytes + before.walBytes)

            try store.limitPageCount(10_000)
            let capped = try store.info()
            // 10,000 pages of the file's page size (a power of two of at least 512 bytes).
            let cap = try #require(capped.maxDatabaseBytes)
            let pageSize = cap / 10_000
            #expect(cap % 10_000 == 0)
            #expect(pageSize >= 512 && pageSize & (pageSize - 1) == 0)
            #expect(capped.databaseBytes % pageSize == 0)
        }
    }
}
