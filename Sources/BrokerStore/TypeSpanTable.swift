import BrokerModel

/// The `type_spans` table: per type, the longest end − start of any sample ever stored.
///
/// Only ever raised (deleting a sample leaves it), so it always bounds every stored sample and
/// tombstone of the type; `SampleBounds` uses it to bound start dates.
final class TypeSpanTable {
    private let select: Statement
    private let raise: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT max_duration_us FROM type_spans WHERE type = ?1")
        raise = try database.prepare("""
            INSERT INTO type_spans (type, max_duration_us) VALUES (?1, ?2)
            ON CONFLICT (type) DO UPDATE SET max_duration_us = max(max_duration_us, excluded.max_duration_us)
            """)
    }

    /// The longest span stored for `type`; 0 when it has none.
    func maxDuration(_ type: ObjectType) throws(BrokerError) -> Int64 {
        try select.run { statement throws(BrokerError) in
            try statement.bind(type.identifier, at: 1)
            return try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// Raises the longest span of `type` to at least `duration`.
    func raise(_ type: ObjectType, to duration: Int64) throws(BrokerError) {
        try raise.run { statement throws(BrokerError) in
            try statement.bind(type.identifier, at: 1)
            try statement.bind(duration, at: 2)
            try statement.execute()
        }
    }
}
