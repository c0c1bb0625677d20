public import BrokerModel
#if canImport(Glibc)
public import Glibc
#endif

/// The broker's private data directory: mode 0700, holding `broker.sqlite3` and its WAL files at 0600,
/// and `broker.lock`, which the one store using the directory holds (`DataDirectoryLock`).
///
/// SQLite creates `-wal` and `-shm` with the main file's permission bits, so creating the main
/// file at 0600 before SQLite opens it keeps them private too; `restrictDatabaseFiles(_:)` also
/// tightens any that already exist with looser bits. The process umask is left alone, since
/// changing it would affect every thread.
public enum DataDirectory {
    /// The database file's name inside the data directory.
    public static let databaseFileName = "broker.sqlite3"

    /// The lock file's name inside the data directory (`DataDirectoryLock`).
    public static let lockFileName = "broker.lock"

    /// The permission bits of the directory.
    public static let directoryMode: mode_t = 0o700

    /// The permission bits of the database, `-wal` and `-shm` files.
    public static let fileMode: mode_t = 0o600

    /// The database path inside `directory`.
    public static func databasePath(in directory: String) -> String {
        directory.hasSuffix("/") ? directory + databaseFileName : directory + "/" + databaseFileName
    }

    /// The lock file path inside `directory`.
    public static func lockPath(in directory: String) -> String {
        directory.hasSuffix("/") ? directory + lockFileName : directory + "/" + lockFileName
    }

    /// Creates `path` (and missing parents) at 0700, tightens it to 0700 if looser, and creates the
    /// database file at 0600; returns the database path.
    ///
    /// - Throws: `database_inaccessible` when the directory or file cannot be created or fixed.
    @discardableResult
    public static func prepare(_ path: String) throws(BrokerError) -> String {
        guard !path.isEmpty else { throw .databaseInaccessible("the data directory path is empty") }
        try makeDirectories(path)
        try restrictDirectory(path)
        let database = databasePath(in: path)
        try createPrivateFile(database)
        try restrictDatabaseFiles(database)
        return database
    }

    /// Sets the database file and any existing `-wal` / `-shm` files to 0600.
    public static func restrictDatabaseFiles(_ databasePath: String) throws(BrokerError) {
        for file in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0 else {
                if errno == ENOENT { continue }
                throw failure("cannot inspect", file)
            }
            if info.st_mode & 0o777 != fileMode, chmod(file, fileMode) != 0 {
                throw failure("cannot restrict permissions of", file)
            }
        }
    }

    /// `mkdir -p` with mode 0700 for every directory it creates.
    private static func makeDirectories(_ path: String) throws(BrokerError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += component
            if mkdir(prefix, directoryMode) != 0 {
                // EEXIST is fine; so is any error for a directory that exists (EROFS, EACCES on a parent).
                let error = failure("cannot create directory", prefix)
                var info = stat()
                guard stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw error }
            }
            prefix += "/"
        }
    }

    /// Checks `path` is a directory and sets it to exactly 0700 if its bits differ.
    private static func restrictDirectory(_ path: String) throws(BrokerError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure("cannot inspect", path) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .databaseInaccessible("the data directory \(path) is not a directory")
        }
        if info.st_mode & 0o777 != directoryMode, chmod(path, directoryMode) != 0 {
            throw failure("cannot restrict permissions of", path)
        }
    }

    /// Creates `path` at 0600 if it does not exist (an existing file is left to `restrictDatabaseFiles`).
    private static func createPrivateFile(_ path: String) throws(BrokerError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw failure("cannot create", path) }
        close(descriptor)
    }

    /// A `database_inaccessible` error naming the action, the path and `errno`.
    private static func failure(_ action: String, _ path: String) -> BrokerError {
        let reason = String(cString: strerror(errno))
        return .databaseInaccessible("\(action) \(path): \(reason)")
    }
}
