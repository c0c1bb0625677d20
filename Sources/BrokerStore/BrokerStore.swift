public import BrokerModel

/// The broker's durable state in one SQLite database: the app registry, broker metadata,
/// authorization grants, sources, characteristics, samples with their tombstones, and the access log.
///
/// Confined to one thread at a time, like the `Database` it owns: the daemon creates it, moves it
/// to its single storage worker thread, and calls it only from there (that hand-off is why it is
/// `@unchecked Sendable`). Every statement is prepared once, at `init`, and reused. Token hashing
/// is the caller's job: the store only keeps the hashes it is given.
public final class BrokerStore: @unchecked Sendable {
    /// The data directory this store opened.
    public let dataDirectory: String

    /// The SQLite file inside `dataDirectory`.
    public let databasePath: String

    /// The connection; internal so the extensions in other files can open transactions.
    let database: Database
    private let apps: AppTable
    private let meta: MetaTable
    /// The `grants` table (used by `BrokerStore+Authorization.swift`).
    let grants: GrantTable
    /// The `sources` table (used by `BrokerStore+Authorization.swift`).
    let sources: SourceTable
    /// The `characteristics` table (used by `BrokerStore+Authorization.swift`).
    let characteristics: CharacteristicTable
    /// The `samples` table (used by `BrokerStore+Samples.swift`).
    let sampleTable: SampleTable
    /// The `correlations` and `correlation_members` tables (used by `BrokerStore+Correlations.swift`).
    let correlationTable: CorrelationTable
    /// The `tombstones` table (used by `BrokerStore+Samples.swift`).
    let tombstoneTable: TombstoneTable
    /// The `access_log` table (used by `BrokerStore+Samples.swift`).
    let accessLogTable: AccessLogTable
    /// The `change_sequence` counter (used by `BrokerStore+Samples.swift`).
    let sequenceTable: ChangeSequenceTable
    /// The `type_spans` table (used by `BrokerStore+Samples.swift`).
    let spanTable: TypeSpanTable
    /// The `app_type_spans` table (used by `BrokerStore+Samples.swift`).
    let appSpanTable: AppTypeSpanTable
    /// The `prune_marks` table (used by `BrokerStore+Samples.swift`).
    let pruneMarks: PruneMarkTable
    /// The `correlation_prune_marks` table (used by `BrokerStore+CorrelationChanges.swift`).
    let correlationPruneMarks: PruneMarkTable
    /// The `long_spans` table (used by `BrokerStore+Samples.swift`).
    let longSpans: LongSpanTable
    /// The person's source order per type (`source_priorities`).
    let sourcePriorities: SourcePriorityTable
    /// Whether hour rollups are kept and read (`HEALTHBROKER_ROLLUPS`; always in normal use).
    let rollupMode: RollupMode
    /// The second connection that query pages read through (`SampleTable`).
    private let reader: Database
    /// The data directory's lock, held from before the database opens until `close()`.
    private let directoryLock: DataDirectoryLock
    /// The durability the database was opened with.
    private let durability: Durability
    /// The background checkpoint thread, once started.
    private var checkpointer: Checkpointer?
    /// The WAL lengths (pages of this file's size) of `Checkpointer.backgroundBytes` and `inlineBytes`.
    private let checkpointPages: (background: Int32, inline: Int32)
    /// The cap `limitPageCount` set, if any.
    private(set) var pageLimit: Int?
    /// How many transactions have committed writes through this store since it opened.
    ///
    /// Read it on the store's thread after a job: a `WALSyncer` holds that job's result back until
    /// this commit is durable.
    public private(set) var commits: UInt64 = 0

    /// The migration this store ran when it opened, with the backup made before it; nil when the
    /// schema was current (or the database new).
    public let migration: SchemaMigration?

    /// Prepares `dataDirectory` (0700, files 0600), locks it, opens its database and applies
    /// pending migrations.
    ///
    /// - Throws: `database_inaccessible` when the directory or database cannot be used;
    ///   `FAILED_PRECONDITION` when another process (or another open store) holds the directory,
    ///   naming its pid, or when the database was written by a newer broker.
    public init(dataDirectory: String, durability: Durability = .normal) throws(BrokerError) {
        let path = try DataDirectory.prepare(dataDirectory)
        // Before SQLite opens anything: a second broker must not even migrate the first one's file.
        let lock = try DataDirectoryLock(directory: dataDirectory)
        let database: Database
        do {
            database = try Database(path: path, durability: durability)
        } catch {
            lock.release()
            throw error
        }
        self.durability = durability
        var reader: Database?
        do {
            migration = try Self.backUpBeforeMigrating(
                database, dataDirectory: dataDirectory, migrations: BrokerSchema.migrations, now: StoreBackup.currentSeconds())
            try BrokerSchema.migrations.apply(to: database)
            try DataDirectory.restrictDatabaseFiles(path)
            // SQLite's default 2 MiB cache: enough for a scan, which reads each page once.
            let queries = try Database(path: path, durability: durability, cacheKiB: 2_048)
            reader = queries
            apps = try AppTable(database: database)
            meta = try MetaTable(database: database)
            grants = try GrantTable(database: database)
            sources = try SourceTable(database: database)
            characteristics = try CharacteristicTable(database: database)
            let rollupMode = RollupMode.fromEnvironment
            self.rollupMode = rollupMode
            sampleTable = try SampleTable(database: database, reader: queries, readsRollups: rollupMode.reads)
            correlationTable = try CorrelationTable(database: database, reader: queries)
            tombstoneTable = try TombstoneTable(database: database, types: sampleTable.types, apps: sampleTable.apps)
            accessLogTable = try AccessLogTable(database: database)
            sequenceTable = try ChangeSequenceTable(database: database)
            spanTable = try TypeSpanTable(database: database)
            appSpanTable = try AppTypeSpanTable(database: database)
            pruneMarks = try PruneMarkTable(database: database)
            correlationPruneMarks = try PruneMarkTable(database: database, table: "correlation_prune_marks")
            longSpans = try LongSpanTable(database: database)
            sourcePriorities = try SourcePriorityTable(database: database)
            try Self.settleRollups(database, meta: meta, mode: rollupMode)
            // Every catalogue type gets its code up front: whether a type has one must not depend on
            // whether any app stored it, or a read of a type only others store would cost more than
            // a read of a type nobody stores.
            // A full disk leaves it to the first save of each type.
            _ = try? sampleTable.types.assignAll(TypeCatalogue.all.filter { !$0.isCharacteristic }.map(\.type.identifier))
            self.reader = queries
        } catch {
            reader?.close()
            database.close()
            lock.release()
            throw error
        }
        directoryLock = lock
        self.dataDirectory = dataDirectory
        self.databasePath = path
        self.database = database
        let pageSize = (try? database.pageSize()) ?? 4_096
        checkpointPages = (Checkpointer.pages(Checkpointer.backgroundBytes, pageSize: pageSize),
                           Checkpointer.pages(Checkpointer.inlineBytes, pageSize: pageSize))
        database.onCommit { [unowned self] pages in self.committed(walPages: pages) }
    }

    /// Registers an app with the hash of its first token; a duplicate id is `ALREADY_EXISTS`.
    public func addApp(_ registration: AppRegistration, tokenHash: [UInt8], now: Int64) throws(BrokerError) -> AppInfo {
        try apps.add(registration, tokenHash: tokenHash, now: now)
    }

    /// Every registered app, sorted by id.
    public func listApps() throws(BrokerError) -> [AppInfo] {
        try apps.all().map(\.info)
    }

    /// Every registered app with its token hash, sorted by id (the daemon loads these at start).
    public func allApps() throws(BrokerError) -> [StoredApp] {
        try apps.all()
    }

    /// The app with `id` and its token hash, or nil.
    public func app(_ id: String) throws(BrokerError) -> StoredApp? {
        try apps.app(id)
    }

    /// Removes the app with `id` and, in the same transaction, its grants; false when there was no app.
    ///
    /// Its source row stays (shown as no longer registered). Grants are deleted even when the app
    /// row is already gone, so stray grants of an unknown id are cleaned up too.
    public func removeApp(_ id: String) throws(BrokerError) -> Bool {
        try database.transaction { () throws(BrokerError) -> Bool in
            let removed = try apps.remove(id)
            _ = try grants.removeAll(appID: id)
            return removed
        }
    }

    /// Replaces an app's token hash and stamps the rotation time; nil when there is no such app.
    public func replaceTokenHash(appID: String, hash: [UInt8], now: Int64) throws(BrokerError) -> AppInfo? {
        try apps.replaceTokenHash(appID: appID, hash: hash, now: now)
    }

    /// Caps the database file at `pages` pages (SQLite `max_page_count`); writes past it fail as a full disk would.
    ///
    /// Deletes may go a reserve above the cap (`reclaiming(_:)`): they are how an app frees room.
    public func limitPageCount(_ pages: Int) throws(BrokerError) {
        let pages = max(1, pages)
        try database.execute("PRAGMA max_page_count = \(pages)")
        pageLimit = pages
    }

    /// The pages a delete may use above the cap: an eighth of it, at least 16.
    static func deleteReservePages(_ pageLimit: Int) -> Int { max(16, pageLimit / 8) }

    /// Runs `body`, a delete, with the page cap raised by `deleteReservePages`.
    ///
    /// A delete writes its tombstones before the pages it empties come free, so at the cap even a
    /// delete of a few hundred samples would fail, and an app could never make room again. The
    /// cap is put back afterwards (SQLite keeps it at the file's size if the file grew past it),
    /// so the file never grows more than the reserve above the cap.
    func reclaiming<T>(_ body: () throws(BrokerError) -> T) throws(BrokerError) -> T {
        guard let pageLimit else { return try body() }
        try database.execute("PRAGMA max_page_count = \(pageLimit + Self.deleteReservePages(pageLimit))")
        defer { try? database.execute("PRAGMA max_page_count = \(pageLimit)") } // lowering a cap does not fail
        return try body()
    }

    /// The metadata blob stored under `key`, or nil.
    public func metaValue(_ key: String) throws(BrokerError) -> [UInt8]? {
        try meta.value(key)
    }

    /// Stores a metadata blob under `key`, replacing any previous value.
    public func setMetaValue(_ key: String, _ value: [UInt8]) throws(BrokerError) {
        try meta.setValue(key, value)
    }

    /// Moves WAL checkpoints off the committing thread onto a background thread with its own connection.
    ///
    /// Without it, the commit that takes the WAL past 4 MB (`Checkpointer.backgroundBytes`) copies the WAL back itself, as
    /// SQLite's automatic checkpoint would. Call once, before the store is handed to its worker;
    /// `close()` stops the thread.
    public func checkpointInBackground() throws(BrokerError) {
        guard checkpointer == nil else { return }
        let checkpointer = try Checkpointer(path: databasePath, durability: durability)
        self.checkpointer = checkpointer
        checkpointer.start()
    }

    /// Counts a commit and checkpoints as its WAL length asks (SQLite's WAL hook; the committing thread).
    private func committed(walPages pages: Int32) {
        commits &+= 1
        if pages >= checkpointPages.inline {
            _ = try? database.checkpoint()
        } else if pages >= checkpointPages.background {
            if let checkpointer {
                checkpointer.request()
            } else {
                _ = try? database.checkpoint()
            }
        }
    }

    /// SQLite's count of the work this store's statements have done (virtual-machine steps, both connections).
    ///
    /// For tests: the difference around a read is the work that read did, exactly and without noise.
    public func statementWork() -> Int64 {
        database.virtualMachineSteps() + reader.virtualMachineSteps()
    }

    /// A `WALSyncer` for this store's database (not started).
    public func makeWALSyncer() -> WALSyncer {
        WALSyncer(databasePath: databasePath)
    }

    /// How many background checkpoints have run (0 without `checkpointInBackground()`).
    public var backgroundCheckpoints: Int { checkpointer?.completed ?? 0 }

    /// Closes the database (finalizing every statement); later calls throw `INTERNAL`. Idempotent.
    public func close() {
        database.onCommit(nil)
        checkpointer?.stop()
        checkpointer = nil
        reader.close()
        database.close()
        directoryLock.release()
    }
}
