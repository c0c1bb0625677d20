import BrokerCore

/// The `tombstones` table: deleted samples, remembered (uuid, type, dates, source) for anchored queries.
final class TombstoneTable {
    private let database: Database
    private let insert: Statement
    private let changes: Statement
    private let highestBefore: Statement
    private let deleteBefore: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        self.database = database
        insert = try database.prepare("""
            INSERT INTO tombstones (seq, uuid, type, start_us, end_us, source_app_id, deleted_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        // Unary + keeps the date and source filters off the indexes: the scan is by (type, seq).
        changes = try database.prepare("""
            SELECT seq, uuid FROM tombstones
            WHERE type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
              AND (+end_us >= ?8 OR +source_app_id = ?9)
            ORDER BY seq LIMIT ?10
            """)
        highestBefore = try database.prepare("SELECT max(seq) FROM tombstones WHERE deleted_us < ?1")
        deleteBefore = try database.prepare("DELETE FROM tombstones WHERE deleted_us < ?1")
    }

    /// Remembers the deletion of `sample` as change `sequence`.
    func add(_ sample: DeletedSample, sequence: Int64, now: Int64) throws(BrokerError) {
        try insert.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.bind(sample.uuid, at: 2)
            try statement.bind(sample.type.identifier, at: 3)
            try statement.bind(sample.startMicros, at: 4)
            try statement.bind(sample.endMicros, at: 5)
            try statement.bind(sample.sourceAppID, at: 6)
            try statement.bind(now, at: 7)
            try statement.execute()
        }
    }

    /// Up to `limit` (seq, uuid) of readable, matching tombstones of `type` with seq in (after, through], by seq.
    func changes(type: ObjectType, bounds: SampleBounds, scope: ScopeFilter, after: Int64, through: Int64, limit: Int) throws(BrokerError) -> [(sequence: Int64, uuid: String)] {
        try changes.run { statement throws(BrokerError) in
            try statement.bind(type.identifier, at: 1)
            try statement.bind(after, at: 2)
            try statement.bind(through, at: 3)
            try bounds.bind(to: statement, from: 4)
            try scope.bind(to: statement, from: 8)
            try statement.bind(Int64(limit), at: 10)
            var rows: [(sequence: Int64, uuid: String)] = []
            while try statement.step() {
                rows.append((statement.int64(at: 0), statement.string(at: 1)))
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
