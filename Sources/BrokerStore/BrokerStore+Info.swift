public import BrokerModel
#if canImport(Glibc)
import Glibc
#endif

extension BrokerStore {
    /// The store's size on disk and what it holds (AdminStoreInfo): the main file's pages, its free
    /// pages, the WAL beside it, the page cap, and the samples, tombstones and apps it counts.
    ///
    /// Counting walks the samples' and tombstones' tables (SQLite keeps no row count), so it costs a
    /// scan of their smallest index; it runs on the store's thread like every other job.
    public func info() throws(BrokerError) -> StoreInfo {
        let pageSize = try database.pageSize()
        let pages = try database.integer("PRAGMA page_count")
        let freePages = try database.integer("PRAGMA freelist_count")
        var wal = stat()
        let walBytes = stat(databasePath + "-wal", &wal) == 0 ? UInt64(max(0, wal.st_size)) : 0
        return StoreInfo(
            schemaVersion: UInt32(clamping: try database.userVersion()),
            databaseBytes: UInt64(max(0, pages * pageSize)), freeBytes: UInt64(max(0, freePages * pageSize)),
            walBytes: walBytes, maxDatabaseBytes: pageLimit.map { UInt64(max(0, Int64($0) * pageSize)) },
            samples: UInt64(max(0, try database.integer("SELECT count(*) FROM samples"))),
            tombstones: UInt64(max(0, try database.integer("SELECT count(*) FROM tombstones"))),
            apps: UInt32(clamping: try database.integer("SELECT count(*) FROM apps")))
    }
}
