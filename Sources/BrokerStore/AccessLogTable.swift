import BrokerModel

/// The `access_log` table: which app read, wrote or deleted how many samples of which type, when,
/// through which call. One row per call and type; the chunks of one import (a batch id) share a row.
final class AccessLogTable {
    private let insert: Statement
    private let selectAll: Statement
    private let selectApp: Statement

    /// The columns every SELECT reads, in `entries` order.
    private static let columns = "at_us, app_id, operation, type, sample_count, method"

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        // A row with a batch id adds its count to the batch's row for the same app and type, if
        // there is one, and moves its time to the latest chunk; without one (NULL) it is always new.
        insert = try database.prepare("""
            INSERT INTO access_log (at_us, app_id, operation, type, sample_count, method, batch_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (batch_id, app_id, type) WHERE batch_id IS NOT NULL
            DO UPDATE SET sample_count = sample_count + excluded.sample_count, at_us = max(at_us, excluded.at_us)
            """)
        // Newest first; ties in time by insertion order, newest first. A limit of -1 is no limit.
        selectAll = try database.prepare(
            "SELECT \(Self.columns) FROM access_log ORDER BY at_us DESC, id DESC LIMIT ?1")
        selectApp = try database.prepare(
            "SELECT \(Self.columns) FROM access_log WHERE app_id = ?2 ORDER BY at_us DESC, id DESC LIMIT ?1")
    }

    /// Appends one row, or with a non-empty `batchID` adds `count` to that batch's row for the app
    /// and type when it has one.
    func append(appID: String, operation: String, method: String, type: ObjectType, count: Int, now: Int64, batchID: String = "") throws(BrokerError) {
        try insert.run { statement throws(BrokerError) in
            try statement.bind(now, at: 1)
            try statement.bind(appID, at: 2)
            try statement.bind(operation, at: 3)
            try statement.bind(type.identifier, at: 4)
            try statement.bind(Int64(max(0, count)), at: 5)
            try statement.bind(method, at: 6)
            if batchID.isEmpty { try statement.bindNull(at: 7) } else { try statement.bind(batchID, at: 7) }
            try statement.execute()
        }
    }

    /// The newest `limit` rows (all when `limit` ≤ 0), of `appID` only when given.
    func entries(appID: String?, limit: Int) throws(BrokerError) -> [AccessLogEntry] {
        let statement = appID == nil ? selectAll : selectApp
        return try statement.run { statement throws(BrokerError) in
            try statement.bind(limit > 0 ? Int64(limit) : -1, at: 1)
            if let appID { try statement.bind(appID, at: 2) }
            var entries: [AccessLogEntry] = []
            while try statement.step() {
                entries.append(AccessLogEntry(
                    atMicros: statement.int64(at: 0), appID: statement.string(at: 1),
                    operation: statement.string(at: 2), type: ObjectType(statement.string(at: 3)),
                    sampleCount: UInt64(max(0, statement.int64(at: 4))), method: statement.string(at: 5)))
            }
            return entries
        }
    }
}
