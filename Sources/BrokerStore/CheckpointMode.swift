import CSQLite

/// How a WAL checkpoint treats readers and writers (`sqlite3_wal_checkpoint_v2` modes).
public enum CheckpointMode: Sendable {
    /// Copies what it can without waiting for anyone.
    case passive
    /// Waits for writers, copies everything, and lets the next writer start the WAL over.
    case restart
    /// As `restart`, and truncates the WAL file to zero bytes.
    case truncate

    /// The SQLite constant.
    var sqliteValue: Int32 {
        switch self {
        case .passive: SQLITE_CHECKPOINT_PASSIVE
        case .restart: SQLITE_CHECKPOINT_RESTART
        case .truncate: SQLITE_CHECKPOINT_TRUNCATE
        }
    }
}
