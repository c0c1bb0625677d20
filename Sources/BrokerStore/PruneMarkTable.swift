import BrokerModel

/// The `prune_marks` table: which pruned deletions each reader could have seen, per (type, source app).
///
/// A pruned tombstone is a point (end_us, seq). Per (type, app) the table keeps only the points
/// that no other pruned tombstone dominates (one with an end at least as late and a seq at least
/// as high), so "the highest pruned seq among tombstones ending at or after F" is exact for every
/// F while the table stays small. An anchor at position P expires for a reader exactly when a
/// deletion that reader could see — its own, or one ending at or after its floor — was pruned
/// after P: other apps' pruning, outside its scope, never reaches it.
final class PruneMarkTable {
    private let selectOwn: Statement
    private let selectVisible: Statement
    private let selectPoints: Statement
    private let deletePoints: Statement
    private let insertPoint: Statement

    /// Prepares the statements of `table` (`prune_marks`, or `correlation_prune_marks`, which
    /// holds a pruned correlation deletion's member points) on `database`.
    init(database: Database, table: String = "prune_marks") throws(BrokerError) {
        // The primary key (type, app, end_us) serves the own look-up, prune_marks_by_type_end the
        // visible one: neither reads a mark outside what the reader could see.
        selectOwn = try database.prepare("SELECT max(seq) FROM \(table) WHERE type = ?1 AND app = ?2")
        selectVisible = try database.prepare("SELECT max(seq) FROM \(table) WHERE type = ?1 AND end_us >= ?2")
        selectPoints = try database.prepare("SELECT end_us, seq FROM \(table) WHERE type = ?1 AND app = ?2")
        deletePoints = try database.prepare("DELETE FROM \(table) WHERE type = ?1 AND app = ?2")
        insertPoint = try database.prepare("INSERT INTO \(table) (type, app, end_us, seq) VALUES (?1, ?2, ?3, ?4)")
    }

    /// The highest pruned seq a reader with `scope` could have seen (0 when none): its own app's
    /// (`ownCode`, nil when it never saved) and, with a floor, every app's ending at or after it.
    func highestVisible(typeCode: Int64, scope: ScopeFilter, ownCode: Int64?) throws(BrokerError) -> Int64 {
        var highest: Int64 = 0
        if let ownCode {
            highest = try selectOwn.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(ownCode, at: 2)
                return try statement.step() ? statement.optionalInt64(at: 0) ?? 0 : 0
            }
        }
        if let floor = scope.fromMicros {
            highest = max(highest, try selectVisible.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(floor, at: 2)
                return try statement.step() ? statement.optionalInt64(at: 0) ?? 0 : 0
            })
        }
        return highest
    }

    /// Adds pruned tombstones (end_us, seq) of (`typeCode`, `appCode`) and keeps only the undominated points.
    func add(typeCode: Int64, appCode: Int64, points: [(end: Int64, sequence: Int64)]) throws(BrokerError) {
        guard !points.isEmpty else { return }
        let stored = try selectPoints.run { statement throws(BrokerError) -> [(end: Int64, sequence: Int64)] in
            try statement.bind(typeCode, at: 1)
            try statement.bind(appCode, at: 2)
            var rows: [(end: Int64, sequence: Int64)] = []
            while try statement.step() { rows.append((statement.int64(at: 0), statement.int64(at: 1))) }
            return rows
        }
        try deletePoints.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(appCode, at: 2)
            try statement.execute()
        }
        for point in Self.frontier(stored + points) {
            try insertPoint.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(appCode, at: 2)
                try statement.bind(point.end, at: 3)
                try statement.bind(point.sequence, at: 4)
                try statement.execute()
            }
        }
    }

    /// The points of `points` that no other point dominates (end and seq both at least as high), by end descending.
    static func frontier(_ points: [(end: Int64, sequence: Int64)]) -> [(end: Int64, sequence: Int64)] {
        let ordered = points.sorted { $0.end != $1.end ? $0.end > $1.end : $0.sequence > $1.sequence }
        var kept: [(end: Int64, sequence: Int64)] = []
        var highest = Int64.min
        for point in ordered where point.sequence > highest {
            kept.append(point)
            highest = point.sequence
        }
        return kept
    }
}
