public import BrokerModel
import CSQLite

/// One SQLite connection, confined to one thread at a time.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does no locking of its own: the owner must use
/// the connection (and every `Statement` it prepared) from a single thread, or hand it between
/// threads with a proper happens-before edge (a lock or queue) and never use it from two threads
/// at once. That confinement is why the class is `@unchecked Sendable`: it may be created on one
/// thread and moved to the worker thread that then owns it.
///
/// Statements from `prepare(_:)` live until `close()`, which finalizes them all before closing
/// the connection. `close()` is idempotent and also runs from `deinit`.
public final class Database: @unchecked Sendable {
    /// The file this connection opened.
    public let path: String

    /// The `sqlite3*`, or nil once closed.
    private var handle: OpaquePointer?

    /// Every statement prepared through `prepare(_:)`, finalized by `close()`.
    private var statements: [Statement] = []
    /// Parameterless statements run through `executeReusing(_:)`, by SQL.
    private var reused: [String: Statement] = [:]
    /// The commit hook's closure, kept alive while SQLite holds an unretained pointer to it.
    private var commitHook: CommitHook?

    /// Opens (creating if needed) the database at `path` in WAL mode with foreign keys on.
    ///
    /// - Parameters:
    ///   - durability: the `PRAGMA synchronous` level.
    ///   - busyTimeoutMilliseconds: how long a locked database is retried before `SQLITE_BUSY`.
    /// - Throws: `database_inaccessible` when the file cannot be opened or is not a database.
    ///   - cacheKiB: the page cache's size (`PRAGMA cache_size`); the default suits the writing
    ///     connection, whose random-UUID index inserts otherwise spill SQLite's 2 MiB default.
    ///   - newPageSize: the page size a file created by this call gets (`PRAGMA page_size`); an
    ///     existing file keeps the page size it was made with (only a VACUUM changes it).
    public init(path: String, durability: Durability = .normal, busyTimeoutMilliseconds: Int32 = 5_000, cacheKiB: Int = 65_536,
                newPageSize: Int = Database.newPageSize) throws(BrokerError) {
        Self.configureOnce
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(code: code, connection: connection, context: "cannot open database at \(path)")
            sqlite3_close_v2(connection)
            throw error.brokerError
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        do {
            try configure(durability, cacheKiB: cacheKiB, newPageSize: newPageSize)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// The page size of a new store: 16 KiB rather than SQLite's 4 KiB. A sample row goes into the
    /// table and six indexes; with 4× larger pages each B-tree is shallower and a batch's commit
    /// writes fewer, fuller pages (fewer WAL frames, fewer page splits). Re-inserting an imported
    /// export's 165,248 rows with the sqlite3 shell (10,000 per transaction, WAL): 5.5–6.5 µs of CPU
    /// per row at 4 KiB against 4.7–6.2 µs at 16 KiB, 8 KiB between (benchmarks/SCENARIOS.md).
    public static let newPageSize = 16_384

    /// Sets the page size (a new file only), WAL journaling, the durability level and foreign keys,
    /// and registers `stored_uuid` and `catalogue_type`.
    private func configure(_ durability: Durability, cacheKiB: Int, newPageSize: Int) throws(BrokerError) {
        // Before WAL mode: switching to WAL writes the header of an empty file, fixing its page size.
        // SQLite ignores this on a file that has pages already.
        try execute("PRAGMA page_size=\(newPageSize)")
        let mode = try withTemporaryStatement("PRAGMA journal_mode=WAL") { statement throws(BrokerError) in
            try statement.step() ? statement.string(at: 0).lowercased() : ""
        }
        guard mode == "wal" || mode == "memory" else {
            throw .databaseInaccessible("cannot switch \(path) to WAL journal mode (it reports \"\(mode)\")")
        }
        try execute("PRAGMA synchronous=\(durability.pragmaValue)")
        try execute("PRAGMA foreign_keys=ON")
        // No memory-mapped I/O: pages read through the map would count in the broker's resident
        // memory and grow with the database; the page cache is the one bounded place they live.
        try execute("PRAGMA cache_size=-\(max(0, cacheKiB))")
        try execute("PRAGMA mmap_size=0")
        try execute("PRAGMA temp_store=MEMORY")
        try registerStoredUUIDFunction()
        try registerCatalogueTypeFunction()
    }

    /// The live connection, or an error once closed.
    func live() throws(BrokerError) -> OpaquePointer {
        guard let handle else { throw .internal("database \(path) is closed") }
        return handle
    }

    /// Runs one or more SQL statements that take no parameters (`sqlite3_exec`), discarding rows.
    public func execute(_ sql: String) throws(BrokerError) {
        let connection = try live()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection, sql, nil, nil, &message)
        guard code != SQLITE_OK else { return }
        let text = message.map { String(cString: $0) }
        sqlite3_free(message)
        let error = text.map { SQLiteError(code: code, message: $0, context: "SQL failed") }
            ?? SQLiteError(code: code, connection: connection, context: "SQL failed")
        throw error.brokerError
    }

    /// Runs one parameterless statement, prepared the first time and kept until `close()`.
    ///
    /// For the transaction-control statements a save runs per batch and per chunk (BEGIN, COMMIT,
    /// SAVEPOINT, RELEASE, ROLLBACK TO): `execute(_:)` would parse them again every time.
    public func executeReusing(_ sql: String) throws(BrokerError) {
        let statement: Statement
        if let prepared = reused[sql] {
            statement = prepared
        } else {
            statement = try prepare(sql)
            reused[sql] = statement
        }
        try statement.run { statement throws(BrokerError) in try statement.execute() }
    }

    /// Prepares the first statement in `sql` for reuse until `close()`; prepare each statement once.
    public func prepare(_ sql: String) throws(BrokerError) -> Statement {
        let statement = try compile(sql, persistent: true)
        statements.append(statement)
        return statement
    }

    /// How many virtual-machine steps this connection's prepared statements have run since they were prepared.
    ///
    /// SQLite's own count of the work a statement did (`SQLITE_STMTSTATUS_VM_STEP`): every row a
    /// scan visits costs steps, a b-tree seek costs one. Tests compare it around a call to show
    /// that what a read does depends only on what its caller may see; nothing reads it on a hot path.
    public func virtualMachineSteps() -> Int64 {
        statements.reduce(0) { total, statement in
            total + Int64(statement.handle.map { sqlite3_stmt_status($0, SQLITE_STMTSTATUS_VM_STEP, 0) } ?? 0)
        }
    }

    /// Compiles `sql` into a statement that the caller must track or finalize.
    private func compile(_ sql: String, persistent: Bool) throws(BrokerError) -> Statement {
        let connection = try live()
        var compiled: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection, sql, -1, flags, &compiled, nil)
        guard code == SQLITE_OK, let compiled else {
            sqlite3_finalize(compiled)
            if code == SQLITE_OK { throw .internal("no SQL statement in \"\(sql)\"") }
            throw SQLiteError(code: code, connection: connection, context: "cannot prepare \"\(sql)\"").brokerError
        }
        return Statement(handle: compiled)
    }

    /// Prepares `sql`, hands it to `body` once, and finalizes it (for one-off queries such as pragmas).
    private func withTemporaryStatement<T>(_ sql: String, _ body: (Statement) throws(BrokerError) -> T) throws(BrokerError) -> T {
        let statement = try compile(sql, persistent: false)
        defer { statement.finalize() }
        return try body(statement)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`, rolling back if it (or the commit) fails.
    ///
    /// Transactions do not nest: calling this inside another transaction throws `INTERNAL`.
    public func transaction<T>(_ body: () throws(BrokerError) -> T) throws(BrokerError) -> T {
        let connection = try live()
        guard sqlite3_get_autocommit(connection) != 0 else {
            throw .internal("nested transactions are not supported")
        }
        try executeReusing("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
            try executeReusing("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so; errors are ignored.
    private func rollBack() {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    /// The schema version stored in the file header (`PRAGMA user_version`).
    public func userVersion() throws(BrokerError) -> Int64 {
        try withTemporaryStatement("PRAGMA user_version") { statement throws(BrokerError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// The page size in bytes (`PRAGMA page_size`).
    public func pageSize() throws(BrokerError) -> Int64 {
        try withTemporaryStatement("PRAGMA page_size") { statement throws(BrokerError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// The first column of the first row `sql` returns, as an integer (0 when there is no row): for
    /// counts and pragmas.
    func integer(_ sql: String) throws(BrokerError) -> Int64 {
        try withTemporaryStatement(sql) { statement throws(BrokerError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// `PRAGMA integrity_check`'s first line: "ok" for a sound database.
    public func integrityCheck() throws(BrokerError) -> String {
        try withTemporaryStatement("PRAGMA integrity_check") { statement throws(BrokerError) in
            try statement.step() ? statement.string(at: 0) : ""
        }
    }

    /// Whether the main schema has a table named `name`.
    public func hasTable(_ name: String) throws(BrokerError) -> Bool {
        try withTemporaryStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?") { statement throws(BrokerError) in
            try statement.bind(name, at: 1)
            return try statement.step()
        }
    }

    /// Writes a consistent copy of the database to `path`, which must not exist or be empty (`VACUUM INTO`).
    public func vacuum(into path: String) throws(BrokerError) {
        try withTemporaryStatement("VACUUM INTO ?") { statement throws(BrokerError) in
            try statement.bind(path, at: 1)
            try statement.execute()
        }
    }

    /// Sets `PRAGMA user_version` (transactional: it rolls back with an enclosing transaction).
    public func setUserVersion(_ version: Int64) throws(BrokerError) {
        try execute("PRAGMA user_version=\(version)")
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE on this connection.
    public var changedRowCount: Int64 {
        handle.map { sqlite3_changes64($0) } ?? 0
    }

    /// The rowid of the most recent successful INSERT on this connection (0 before any).
    public var lastInsertedRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Calls `body` after every commit on this connection, on the committing thread, with the WAL's length in pages.
    ///
    /// Replaces SQLite's automatic checkpoint (which runs inside the commit): the caller decides
    /// when and where to checkpoint. `body` may call `checkpoint(_:)` on this connection. Pass nil
    /// to remove the hook (the automatic checkpoint does not come back).
    public func onCommit(_ body: ((Int32) -> Void)?) {
        guard let handle else { return }
        guard let body else {
            sqlite3_wal_hook(handle, nil, nil)
            commitHook = nil
            return
        }
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(handle, { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().body(pages)
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// Runs a PASSIVE WAL checkpoint (it copies what it can without waiting for readers or writers);
    /// returns the WAL's length and how many of its pages are now in the database.
    @discardableResult
    public func checkpoint() throws(BrokerError) -> (walPages: Int32, checkpointedPages: Int32) {
        let connection = try live()
        var walPages: Int32 = 0
        var checkpointed: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, &walPages, &checkpointed)
        guard code == SQLITE_OK || code == SQLITE_BUSY else {
            throw SQLiteError(code: code, connection: connection, context: "checkpoint failed").brokerError
        }
        return (walPages, checkpointed)
    }

    /// Process-wide SQLite settings, made once before the first connection opens: no memory-use
    /// statistics (each allocation would take a global mutex to count itself). A no-op if SQLite
    /// was already initialized by someone else.
    private static let configureOnce: Void = {
        _ = healthbroker_sqlite3_disable_memstatus()
    }()

    /// Whether SQLite counts its memory use (it does not once `configureOnce` ran first).
    static var countsMemoryUse: Bool { sqlite3_memory_used() > 0 }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Whether `close()` has run.
    public var isClosed: Bool { handle == nil }

    /// Finalizes every prepared statement and closes the connection; later calls do nothing.
    public func close() {
        if let handle, commitHook != nil { sqlite3_wal_hook(handle, nil, nil) }
        commitHook = nil
        for statement in statements { statement.finalize() }
        statements.removeAll()
        reused.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }
}

/// The closure behind `Database.onCommit`, boxed for SQLite's context pointer.
private final class CommitHook {
    /// Called with the WAL's length in pages.
    let body: (Int32) -> Void

    /// Boxes `body`.
    init(_ body: @escaping (Int32) -> Void) {
        self.body = body
    }
}
