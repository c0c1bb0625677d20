/// A schema migration a store ran when it opened, and the backup it made first.
public struct SchemaMigration: Sendable, Equatable {
    /// The schema version the database had.
    public let fromVersion: Int64
    /// The schema version it has now.
    public let toVersion: Int64
    /// The copy of the database as it was before the migration.
    public let backupPath: String

    /// Creates a record of one migration.
    public init(fromVersion: Int64, toVersion: Int64, backupPath: String) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.backupPath = backupPath
    }
}
