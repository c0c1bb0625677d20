/// What `BrokerStore.restore(from:dataDirectory:now:)` did.
public struct StoreRestore: Sendable, Equatable {
    /// The restored database's schema version (the next start migrates it if older than this build's).
    public let schemaVersion: Int64
    /// Where the database the backup replaced was moved, or nil when there was none.
    public let setAsidePath: String?

    /// Creates a record of one restore.
    public init(schemaVersion: Int64, setAsidePath: String?) {
        self.schemaVersion = schemaVersion
        self.setAsidePath = setAsidePath
    }
}
