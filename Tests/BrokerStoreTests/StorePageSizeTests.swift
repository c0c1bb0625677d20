import BrokerModel
import BrokerStore
import Testing

/// New stores get 16 KiB pages (`Database.newPageSize`); a store made with SQLite's 4 KiB pages
/// keeps them and works as before (only a VACUUM would change its page size).
@Suite("Store page size")
struct StorePageSizeTests {
    typealias F = Fixture

    /// The page size of the store file in `directory`, read through a connection of its own.
    static func pageSize(in directory: TemporaryDirectory) throws -> Int64 {
        let database = try Database(path: DataDirectory.databasePath(in: directory.path))
        defer { database.close() }
        return try database.pageSize()
    }

    /// 300 step samples saved, read back in full, and the file's page size afterwards.
    static func saveAndReadBack(_ store: BrokerStore) throws {
        _ = try store.addApp(AppRegistration(appID: F.app, name: "Writer"), tokenHash: [1], now: 1)
        let samples = (1...300).map { F.steps($0, F.base + Int64($0) * F.minute, F.base + Int64($0) * F.minute + 1) }
        #expect(try store.saveSamples(samples, sourceAppID: F.app, now: 2).saved == samples.count)
        #expect(try store.saveSamples(samples, sourceAppID: F.app, now: 3).saved == 0)
        let exported = try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 1_000)
        #expect(exported.samples.map(\.uuid) == samples.map(\.uuid))
        #expect(exported.samples.map(\.startMicros) == samples.map(\.startMicros))
        #expect(exported.samples.map(\.value) == samples.map(\.value))
        #expect(exported.samples.allSatisfy { $0.sourceAppID == F.app })
    }

    @Test func aNewStoreHasSixteenKiBPages() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        try Self.saveAndReadBack(store)
        store.close()
        #expect(Database.newPageSize == 16_384)
        #expect(try Self.pageSize(in: directory) == 16_384)
    }

    @Test func aStoreMadeWithFourKiBPagesKeepsThem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // The file as an older broker made it: SQLite's default page size, schema applied.
        let old = try Database(path: DataDirectory.databasePath(in: directory.path), newPageSize: 4_096)
        #expect(try BrokerSchema.migrations.apply(to: old) > 0)
        old.close()
        #expect(try Self.pageSize(in: directory) == 4_096)

        let store = try BrokerStore(dataDirectory: directory.path)
        try Self.saveAndReadBack(store)
        store.close()
        #expect(try Self.pageSize(in: directory) == 4_096)
    }
}
