import BrokerCore

/// The `long_spans` table: the duration and end date of every sample longer than `threshold`, by type.
///
/// A read that shows other apps' samples ending at or after a floor F needs a bound on how long
/// those samples last (to turn an end-date range into a start-date one, or to find the samples
/// straddling F). The type's longest span over every sample would let one long sample that ends
/// before F — which the reader may not see — widen what the read walks. The longest of the
/// entries here that end at or after F (or `threshold` when none is longer) bounds exactly the
/// samples the reader may see, and is found by reading only those entries. Entries are only ever
/// added (a deletion leaves its entry, like `type_spans`), which keeps the bound safe.
final class LongSpanTable {
    /// Samples lasting longer than this (10 minutes, µs) get an entry; minute-level data never does.
    static let threshold: Int64 = 600_000_000

    private let select: Statement
    private let insert: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT max(duration_us) FROM long_spans WHERE type = ?1 AND end_us >= ?2")
        insert = try database.prepare("INSERT OR IGNORE INTO long_spans (type, end_us, duration_us) VALUES (?1, ?2, ?3)")
    }

    /// The longest duration among samples of the type with `typeCode` ending at or after `floor`, at least `threshold`.
    func maxDuration(typeCode: Int64, endingAtOrAfter floor: Int64) throws(BrokerError) -> Int64 {
        try select.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(floor, at: 2)
            let longest = try statement.step() ? statement.optionalInt64(at: 0) : nil
            return max(Self.threshold, longest ?? 0)
        }
    }

    /// Records a sample of the type with `typeCode` ending at `end` that lasts `duration` (only when longer than `threshold`).
    func note(typeCode: Int64, end: Int64, duration: Int64) throws(BrokerError) {
        guard duration > Self.threshold else { return }
        try insert.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(end, at: 2)
            try statement.bind(duration, at: 3)
            try statement.execute()
        }
    }
}
