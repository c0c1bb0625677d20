import BrokerModel

/// The `access_log` table: which app read, wrote or deleted how many samples of which type, when.
final class AccessLogTable {
    private let insert: Statement
    private let selectAll: Statement
    private let selectApp: Statement

    /// The columns every SELECT reads, in `decode(_:)` order.
    private static let columns = "at_us, app_id, operation, type, sample_count"

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        insert = try database.prepare("""
            INSERT INTO access_log (at_us, app_id, operation, type, sample_count) VALUES (?1, ?2, ?3, ?4, ?5)
            """)
        // Newest first; ties in time by insertion order, newest first. A limit of -1 is no limit.
        selectAll = try database.prepare(
            "SELECT \(Self.columns) FROM access_log ORDER BY at_us DESC, id DESC LIMIT ?1")
        selectApp = try database.prepare(
            "SELECT \(Self.columns) FROM access_log WHERE app_id = ?2 ORDER BY at_us DESC, id DESC LIMIT ?1")
    }

    /// Appends one row.
    func append(appID: String, operation: String, type: ObjectType, count: Int, now: Int64) throws(BrokerError) {
        try insert.run { statement throws(BrokerError) in
            try statement.bind(now, at: 1)
            try statement.bind(appID, at: 2)
            try statement.bind(operation, at: 3)
            try statement.bind(type.identifier, at: 4)
            try statement.bind(Int64(max(0, count)), at: 5)
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
                    sampleCount: UInt64(max(0, statement.int64(at: 4)))))
            }
            return entries
        }
    }
}
