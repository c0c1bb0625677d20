public import BrokerModel

/// Ordered schema migrations tracked by `PRAGMA user_version`.
///
/// Step `n` (counting from 1) takes the schema from version `n - 1` to `n`. Each pending step runs
/// once, inside its own `BEGIN IMMEDIATE` transaction together with the `user_version` bump, so a
/// failed step leaves the database at the previous version. Steps are append-only: never edit or
/// reorder a released one.
public struct Migrations: Sendable {
    /// The SQL of each step, in order; step `i` (0-based) brings the schema to version `i + 1`.
    public let steps: [String]

    /// Creates a migration list.
    public init(steps: [String]) {
        self.steps = steps
    }

    /// The schema version after every step has run.
    public var latestVersion: Int64 { Int64(steps.count) }

    /// Applies every step the database has not had yet; returns how many ran.
    ///
    /// - Throws: `FAILED_PRECONDITION` when the database is newer than this build knows; the
    ///   failing step's error (its transaction rolled back) when a step fails.
    @discardableResult
    public func apply(to database: Database) throws(BrokerError) -> Int {
        let current = try database.userVersion()
        try refuseNewer(current)
        var applied = 0
        for (offset, sql) in steps.enumerated() where Int64(offset) >= current {
            let version = Int64(offset + 1)
            let ran = try database.transaction { () throws(BrokerError) -> Bool in
                // Re-read under the write lock: another process may have migrated meanwhile.
                let locked = try database.userVersion()
                try refuseNewer(locked)
                guard locked < version else { return false }
                try database.execute(sql)
                try database.setUserVersion(version)
                return true
            }
            if ran { applied += 1 }
        }
        return applied
    }

    /// Throws when `version` is beyond the last step this build knows.
    private func refuseNewer(_ version: Int64) throws(BrokerError) {
        guard version > latestVersion else { return }
        throw BrokerError(
            code: .failedPrecondition,
            message: "the database schema is version \(version) but this broker knows only up to \(latestVersion); run a newer broker")
    }
}
