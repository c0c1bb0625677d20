import BrokerModel
#if canImport(Glibc)
import Glibc
#endif

/// A consistent copy of a broker database written to a file: where it went, and its size.
public struct StoreBackup: Sendable, Equatable {
    /// The backup file's absolute path.
    public let path: String
    /// The file's size in bytes.
    public let bytes: Int64
    /// The database pages it holds (bytes / page size).
    public let pages: Int64

    /// Creates a description of a written backup.
    public init(path: String, bytes: Int64, pages: Int64) {
        self.path = path
        self.bytes = bytes
        self.pages = pages
    }

    /// Writes a snapshot of `database` to the new file `path` (absolute; must not exist) at 0600.
    ///
    /// `VACUUM INTO` reads inside one read transaction, so the copy is consistent even while other
    /// connections write, and it keeps `user_version`. It writes to a temporary name in the same
    /// directory, fsyncs, and only then links the finished file to `path`: a crash or a full disk
    /// never leaves a truncated file under the name a person will later restore from, and `link`
    /// (unlike `rename`) refuses to replace a file that appeared meanwhile.
    ///
    /// - Throws: `INVALID_ARGUMENT` for a path that ends in "/" or a directory that cannot be
    ///   written; `ALREADY_EXISTS` when `path` exists; the SQLite error when the copy fails.
    static func write(_ database: Database, to path: String) throws(BrokerError) -> StoreBackup {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw .invalidArgument("the backup path must name a file, not \"\(path)\"")
        }
        if access(path, F_OK) == 0 { throw .alreadyExists("\(path) already exists") }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (directory == "/" ? "" : directory) + "/.\(name).partial-\(getpid())"
        // Empty and private from the start: VACUUM INTO accepts an empty file and keeps its mode.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DataDirectory.fileMode)
        guard descriptor >= 0 else { throw Self.failure("cannot create", temporary) }
        close(descriptor)
        var linked = false
        defer {
            unlink(temporary)
            if !linked { unlink(temporary + "-journal") }
        }
        try database.vacuum(into: temporary)
        let pageSize = try database.pageSize()
        var info = stat()
        let synced = open(temporary, O_RDONLY | O_CLOEXEC)
        guard synced >= 0, fsync(synced) == 0, fstat(synced, &info) == 0 else {
            let error = Self.failure("cannot sync", temporary)
            if synced >= 0 { close(synced) }
            throw error
        }
        close(synced)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw .alreadyExists("\(path) already exists") }
            throw Self.failure("cannot create", path)
        }
        linked = true
        syncDirectory(directory)
        let bytes = Int64(info.st_size)
        return StoreBackup(path: path, bytes: bytes, pages: pageSize > 0 ? bytes / pageSize : 0)
    }

    /// fsyncs a directory so a new name in it survives power loss (best effort).
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Seconds since the epoch, now (for `timestamp(_:)`).
    public static func currentSeconds() -> Int { Int(time(nil)) }

    /// `YYYYMMDDTHHMMSSZ` for `seconds` since the epoch (UTC), for file names that sort by time.
    public static func timestamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// An `INVALID_ARGUMENT` error naming the action, the path and `errno`.
    static func failure(_ action: String, _ path: String) -> BrokerError {
        .invalidArgument("\(action) \(path): \(String(cString: strerror(errno)))")
    }
}
