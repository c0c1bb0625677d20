public import BrokerModel
#if canImport(Glibc)
import Glibc
#endif

extension BrokerStore {
    /// The folder inside the data directory that holds the backups made before migrations.
    public static let backupFolderName = "backups"

    /// Writes a consistent copy of the whole store to the new file `path` (absolute) at 0600.
    ///
    /// Runs on the store's thread like every other job; writers wait for it, readers of the
    /// query connection do not.
    ///
    /// - Throws: `INVALID_ARGUMENT` for a relative path or a directory the broker cannot write;
    ///   `ALREADY_EXISTS` when `path` exists.
    public func backup(to path: String) throws(BrokerError) -> StoreBackup {
        guard path.hasPrefix("/") else {
            throw .invalidArgument("the backup path must be absolute (the broker writes it, from its own working directory): \(path)")
        }
        return try StoreBackup.write(database, to: path)
    }

    /// Backs `database` up into `<dataDirectory>/backups/before-v<N>-<timestamp>.sqlite` when
    /// `migrations` would take it from an older released version to N; nil when nothing is pending
    /// (or the database is new).
    ///
    /// A migration rewrites tables in place and is append-only history: if one goes wrong, or the
    /// person needs the previous broker back, this copy is the only way to the data as it was.
    static func backUpBeforeMigrating(
        _ database: Database, dataDirectory: String, migrations: Migrations, now: Int
    ) throws(BrokerError) -> SchemaMigration? {
        let current = try database.userVersion()
        guard current > 0, current < migrations.latestVersion else { return nil }
        let folder = (dataDirectory.hasSuffix("/") ? dataDirectory : dataDirectory + "/") + backupFolderName
        if mkdir(folder, DataDirectory.directoryMode) != 0, errno != EEXIST {
            throw .databaseInaccessible("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        let stem = folder + "/before-v\(migrations.latestVersion)-\(StoreBackup.timestamp(now))"
        // Two starts within a second (a restored old backup migrating again) must not collide.
        var attempt = 1
        while true {
            let path = attempt == 1 ? stem + ".sqlite" : stem + "-\(attempt).sqlite"
            do {
                let backup = try StoreBackup.write(database, to: path)
                return SchemaMigration(fromVersion: current, toVersion: migrations.latestVersion, backupPath: backup.path)
            } catch where error.code == .alreadyExists && attempt < 100 {
                attempt += 1
            }
        }
    }

    /// Puts the backup at `backupPath` in place as the database of `dataDirectory`, whose lock
    /// must be free (no broker running on it).
    ///
    /// The file is copied into the directory first and checked there (a SQLite database that
    /// passes `integrity_check`, with the broker's tables and a schema version this build can
    /// migrate), so the backup itself is never written to and a bad one changes nothing. The
    /// current database (and its WAL, if a crash left one) is renamed to
    /// `broker.sqlite3.before-restore-<timestamp>`, never deleted.
    ///
    /// - Throws: `FAILED_PRECONDITION` when the directory is in use or the file is not a backup
    ///   this build can use; `database_inaccessible` when the files cannot be copied or renamed.
    public static func restore(from backupPath: String, dataDirectory: String, now: Int) throws(BrokerError) -> StoreRestore {
        // Before anything is created: a mistyped FILE must not leave a new, empty data directory behind.
        guard access(backupPath, R_OK) == 0 else {
            throw BrokerError(code: .failedPrecondition, message: "cannot read \(backupPath): \(String(cString: strerror(errno)))")
        }
        let databasePath = try DataDirectory.prepare(dataDirectory)
        let lock = try DataDirectoryLock(directory: dataDirectory)
        defer { lock.release() }
        let incoming = databasePath + ".restoring-\(getpid())"
        removeDatabaseFiles(incoming)
        try copyFile(backupPath, to: incoming)
        let version: Int64
        do {
            version = try check(incoming, named: backupPath)
        } catch {
            removeDatabaseFiles(incoming)
            throw error
        }
        var aside: String?
        var info = stat()
        if stat(databasePath, &info) == 0, info.st_size > 0 {
            let target = databasePath + ".before-restore-\(StoreBackup.timestamp(now))"
            guard access(target, F_OK) != 0 else {
                removeDatabaseFiles(incoming)
                throw BrokerError(code: .failedPrecondition, message: "\(target) exists already; try again in a second")
            }
            try move(databasePath, to: target)
            if access(databasePath + "-wal", F_OK) == 0 { try move(databasePath + "-wal", to: target + "-wal") }
            aside = target
        }
        unlink(databasePath + "-wal")
        unlink(databasePath + "-shm")
        try move(incoming, to: databasePath)
        StoreBackup.syncDirectory(dataDirectory)
        return StoreRestore(schemaVersion: version, setAsidePath: aside)
    }

    /// Checks the copy at `path` is a sound broker database this build can migrate; returns its version.
    private static func check(_ path: String, named name: String) throws(BrokerError) -> Int64 {
        func refuse(_ why: String) -> BrokerError {
            BrokerError(code: .failedPrecondition, message: "\(name) is not a HealthBroker backup this broker can restore: \(why)")
        }
        let database: Database
        do {
            database = try Database(path: path)
        } catch {
            throw refuse(error.message)
        }
        defer { database.close() }
        do throws(BrokerError) {
            let integrity = try database.integrityCheck()
            guard integrity == "ok" else { throw refuse("integrity_check says \(integrity)") }
            guard try database.hasTable("apps"), try database.hasTable("broker_meta") else {
                throw refuse("it has no apps and broker_meta tables")
            }
            let version = try database.userVersion()
            let latest = BrokerSchema.migrations.latestVersion
            guard version >= 1, version <= latest else {
                throw refuse("its schema version is \(version) and this broker knows 1 to \(latest)")
            }
            return version
        } catch let error where error.code == .failedPrecondition {
            throw error
        } catch {
            throw refuse(error.message)
        }
    }

    /// Copies `source` to the new file `destination` at 0600 and fsyncs it.
    private static func copyFile(_ source: String, to destination: String) throws(BrokerError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw BrokerError(code: .failedPrecondition, message: "cannot open \(source): \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DataDirectory.fileMode)
        guard output >= 0 else { throw .databaseInaccessible("cannot create \(destination): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .databaseInaccessible("cannot read \(source): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw .databaseInaccessible("cannot write \(destination): \(String(cString: strerror(errno)))") }
                written += step
            }
        }
        guard fsync(output) == 0 else { throw .databaseInaccessible("cannot sync \(destination): \(String(cString: strerror(errno)))") }
    }

    /// `rename`, as a `database_inaccessible` error naming both paths when it fails.
    private static func move(_ source: String, to destination: String) throws(BrokerError) {
        guard rename(source, destination) == 0 else {
            throw .databaseInaccessible("cannot rename \(source) to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a database file and its `-wal` / `-shm` companions, if any.
    private static func removeDatabaseFiles(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] { unlink(file) }
    }
}
