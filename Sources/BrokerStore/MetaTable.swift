import BrokerModel

/// The `broker_meta` table: small named blobs such as the anchor MAC key.
final class MetaTable {
    private let select: Statement
    private let upsert: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT value FROM broker_meta WHERE key = ?1")
        upsert = try database.prepare("""
            INSERT INTO broker_meta (key, value) VALUES (?1, ?2)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
    }

    /// The value stored under `key`, or nil when the key is absent (a stored NULL reads as `[]`).
    func value(_ key: String) throws(BrokerError) -> [UInt8]? {
        try select.run { statement throws(BrokerError) in
            try statement.bind(key, at: 1)
            return try statement.step() ? statement.blob(at: 0) : nil
        }
    }

    /// Stores `value` under `key`, replacing any previous value.
    func setValue(_ key: String, _ value: [UInt8]) throws(BrokerError) {
        try upsert.run { statement throws(BrokerError) in
            try statement.bind(key, at: 1)
            try statement.bind(value, at: 2)
            try statement.execute()
        }
    }
}
