import BrokerCore

/// The `tombstones` table: deleted samples, remembered (uuid, type, dates, source) for anchored queries.
final class TombstoneTable {
    private let database: Database
    /// Type identifier ↔ code, shared with the samples table.
    private let types: NameCodeTable
    /// Source app id ↔ code, shared with the samples table.
    private let apps: NameCodeTable
    private let insert: Statement
    private let changes: Statement
    private let highestBefore: Statement
    private let deleteBefore: Statement

    /// Prepares the table's statements on `database`, with the samples table's name codes.
    init(database: Database, types: NameCodeTable, apps: NameCodeTable) throws(BrokerError) {
        self.database = database
        self.types = types
        self.apps = apps
        insert = try database.prepare("""
            INSERT INTO tombstones (seq, uuid, type, start_us, end_us, app, deleted_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        // Unary + keeps the date and source filters off the indexes: the scan is by (type, seq).
        changes = try database.prepare("""
            SELECT seq, uuid FROM tombstones
            WHERE type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
              AND (+end_us >= ?8 OR +app = ?9)
            ORDER BY seq LIMIT ?10
            """)
        highestBefore = try database.prepare("SELECT max(seq) FROM tombstones WHERE deleted_us < ?1")
        deleteBefore = try database.prepare("DELETE FROM tombstones WHERE deleted_us < ?1")
    }

    /// Remembers the deletion of `sample` (a stored sample, so its type and app have codes) as change `sequence`.
    func add(_ sample: DeletedSample, sequence: Int64, now: Int64) throws(BrokerError) {
        guard let typeCode = try types.code(of: sample.type.identifier), let appCode = try apps.code(of: sample.sourceAppID) else {
            throw .internal("deleted sample \"\(sample.uuid)\" has a type or app without a stored code")
        }
        try insert.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.bind(storedUUID: sample.uuid, at: 2)
            try statement.bind(typeCode, at: 3)
            try statement.bind(sample.startMicros, at: 4)
            try statement.bind(sample.endMicros, at: 5)
            try statement.bind(appCode, at: 6)
            try statement.bind(now, at: 7)
            try statement.execute()
        }
    }

    /// Up to `limit` (seq, uuid) of readable, matching tombstones of `type` with seq in (after, through], by seq.
    func changes(type: ObjectType, bounds: SampleBounds, scope: ScopeFilter, after: Int64, through: Int64, limit: Int) throws(BrokerError) -> [(sequence: Int64, uuid: String)] {
        guard let typeCode = try types.code(of: type.identifier) else { return [] }
        return try changes.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(after, at: 2)
            try statement.bind(through, at: 3)
            try bounds.bind(to: statement, from: 4)
            try scope.bind(to: statement, from: 8, apps: apps)
            try statement.bind(Int64(limit), at: 10)
            var rows: [(sequence: Int64, uuid: String)] = []
            while try statement.step() {
                rows.append((statement.int64(at: 0), statement.storedUUID(at: 1)))
            }
            return rows
        }
    }

    /// Deletes the tombstones of deletions before `before`; returns how many and the highest seq among them.
    func prune(deletedBefore before: Int64) throws(BrokerError) -> (count: Int, highest: Int64?) {
        let highest = try highestBefore.run { statement throws(BrokerError) -> Int64? in
            try statement.bind(before, at: 1)
            return try statement.step() ? statement.optionalInt64(at: 0) : nil
        }
        guard let highest else { return (0, nil) }
        let count = try deleteBefore.run { statement throws(BrokerError) -> Int in
            try statement.bind(before, at: 1)
            try statement.execute()
            return Int(database.changedRowCount)
        }
        return (count, highest)
    }
}
