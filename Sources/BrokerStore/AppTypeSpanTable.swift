import BrokerModel

/// The `app_type_spans` table: per (source app, type), the longest end − start of any sample that app stored.
///
/// Only ever raised, like `TypeSpanTable`. An app's own reads bound their date ranges with its own
/// figure, so another app's long sample never widens what a read-denied app's query walks.
final class AppTypeSpanTable {
    private let select: Statement
    private let raise: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT max_duration_us FROM app_type_spans WHERE app = ?1 AND type = ?2")
        raise = try database.prepare("""
            INSERT INTO app_type_spans (app, type, max_duration_us) VALUES (?1, ?2, ?3)
            ON CONFLICT (app, type) DO UPDATE SET max_duration_us = max(max_duration_us, excluded.max_duration_us)
            """)
    }

    /// The longest span the app with `appCode` stored for the type with `typeCode`; 0 when it has none.
    func maxDuration(appCode: Int64, typeCode: Int64) throws(BrokerError) -> Int64 {
        try select.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            return try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// Raises the longest span of (`appCode`, `typeCode`) to at least `duration`.
    func raise(appCode: Int64, typeCode: Int64, to duration: Int64) throws(BrokerError) {
        try raise.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            try statement.bind(duration, at: 3)
            try statement.execute()
        }
    }
}
