import BrokerModel

/// The `tombstones` table: deleted samples, remembered (uuid, type, dates, source) for anchored queries.
final class TombstoneTable {
    private let database: Database
    /// Type identifier ↔ code, shared with the samples table.
    private let types: NameCodeTable
    /// Source app id ↔ code, shared with the samples table.
    private let apps: NameCodeTable
    private let insert: Statement
    private let changes: Statement
    private let ownChanges: Statement
    private let visibleChanges: Statement
    private let prunedPoints: Statement
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
        // Parameters: ?1 type code; ?2, ?3 the seq range (after, through]; ?4 … ?7 `SampleBounds`;
        // ?8 the app code (own only); ?9 the row limit. Unary + keeps the other filters off the
        // indexes, so each statement scans the index its scope allows: a full reader's by
        // (type, seq), an own-only reader's by (app, type, seq), a limited reader's the end-date
        // range from its floor (every tombstone it reads is one it may see).
        changes = try database.prepare("""
            SELECT seq, uuid, app FROM tombstones
            WHERE type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
            ORDER BY seq LIMIT ?9
            """)
        ownChanges = try database.prepare("""
            SELECT seq, uuid, app FROM tombstones INDEXED BY tombstones_by_app_type_seq
            WHERE app = ?8 AND type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
            ORDER BY seq LIMIT ?9
            """)
        visibleChanges = try database.prepare("""
            SELECT seq, uuid, app FROM tombstones INDEXED BY tombstones_by_type_end
            WHERE type = ?1 AND end_us BETWEEN ?6 AND ?7 AND +seq > ?2 AND +seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5
            ORDER BY seq LIMIT ?9
            """)
        prunedPoints = try database.prepare("SELECT type, app, end_us, seq FROM tombstones WHERE deleted_us < ?1")
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

    /// Up to `limit` readable, matching tombstones of `type` with seq in (after, through], by seq: (seq, uuid, source app code).
    ///
    /// Reads follow the scope as `SampleTable.added` does.
    func changes(type: ObjectType, predicate: SamplePredicate, scope: ScopeFilter, spans: ReadSpans, after: Int64, through: Int64, limit: Int) throws(BrokerError) -> [(sequence: Int64, sample: (uuid: String, appCode: Int64))] {
        guard let typeCode = try types.code(of: type.identifier) else { return [] }
        return try ScopedChangeRead.rows(scope: scope, predicate: predicate, spans: spans, limit: limit) { part throws(BrokerError) in
            let (statement, bounds, appCode): (Statement, SampleBounds, Int64?) = switch part {
            case .own(let bounds, let appCode): (ownChanges, bounds, appCode)
            case .all(let bounds): (changes, bounds, nil)
            case .visible(let bounds): (visibleChanges, bounds, nil)
            }
            return try statement.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(after, at: 2)
                try statement.bind(through, at: 3)
                try bounds.bind(to: statement, from: 4)
                try statement.bind(appCode, at: 8)
                try statement.bind(Int64(limit), at: 9)
                var rows: [(sequence: Int64, sample: (uuid: String, appCode: Int64))] = []
                while try statement.step() {
                    rows.append((statement.int64(at: 0), (statement.storedUUID(at: 1), statement.int64(at: 2))))
                }
                return rows
            }
        }
    }

    /// Deletes the tombstones of deletions before `before`; returns how many, and per (type code,
    /// app code) the pruned points (end_us, seq) for `PruneMarkTable`.
    func prune(deletedBefore before: Int64) throws(BrokerError) -> (count: Int, points: [PrunedKey: [(end: Int64, sequence: Int64)]]) {
        let points = try prunedPoints.run { statement throws(BrokerError) -> [PrunedKey: [(end: Int64, sequence: Int64)]] in
            try statement.bind(before, at: 1)
            var points: [PrunedKey: [(end: Int64, sequence: Int64)]] = [:]
            while try statement.step() {
                points[PrunedKey(typeCode: statement.int64(at: 0), appCode: statement.int64(at: 1)), default: []]
                    .append((statement.int64(at: 2), statement.int64(at: 3)))
            }
            return points
        }
        guard !points.isEmpty else { return (0, [:]) }
        let count = try deleteBefore.run { statement throws(BrokerError) -> Int in
            try statement.bind(before, at: 1)
            try statement.execute()
            return Int(database.changedRowCount)
        }
        return (count, points)
    }

    /// The (type, source app) a pruned tombstone belonged to.
    struct PrunedKey: Hashable {
        let typeCode: Int64
        let appCode: Int64
    }
}
