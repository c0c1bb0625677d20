/// The store at a glance, as the admin sees it: its size on disk and what it holds.
public struct StoreInfo: Sendable, Hashable {
    /// The schema migrations applied to the database file.
    public var schemaVersion: UInt32
    /// The main database file's size in bytes (its pages).
    public var databaseBytes: UInt64
    /// Bytes of free pages in it, which later writes reuse (a backup leaves them out).
    public var freeBytes: UInt64
    /// The write-ahead log beside it now, in bytes (0 when there is none).
    public var walBytes: UInt64
    /// The cap on the main file (the daemon's `--max-db-pages`), in bytes; nil when there is none.
    public var maxDatabaseBytes: UInt64?
    /// Stored samples, every app's.
    public var samples: UInt64
    /// Deleted samples still remembered for anchored queries.
    public var tombstones: UInt64
    /// Registered apps.
    public var apps: UInt32

    /// Creates store info.
    package init(
        schemaVersion: UInt32, databaseBytes: UInt64, freeBytes: UInt64, walBytes: UInt64, maxDatabaseBytes: UInt64?,
        samples: UInt64, tombstones: UInt64, apps: UInt32
    ) {
        self.schemaVersion = schemaVersion
        self.databaseBytes = databaseBytes
        self.freeBytes = freeBytes
        self.walBytes = walBytes
        self.maxDatabaseBytes = maxDatabaseBytes
        self.samples = samples
        self.tombstones = tombstones
        self.apps = apps
    }
}
