import BrokerModel

/// The `long_spans` table: per type, the (end date, duration) of samples longer than `threshold`
/// that no other such sample dominates (one ending no earlier and lasting no less).
///
/// A read that shows other apps' samples ending at or after a floor F needs a bound on how long
/// those samples last (to turn an end-date range into a start-date one, or to find the samples
/// straddling F). The type's longest span over every sample would let one long sample that ends
/// before F — which the reader may not see — widen what the read walks. Kept as a frontier, the
/// entries' durations fall as their end dates rise, so the first entry ending at or after F is the
/// longest sample ending at or after F: one seek, which reads nothing that ends before F (an entry
/// is only ever dropped for one that ends later, so the frontier of what ends at or after F is
/// built from those samples alone). Entries are never removed on delete (like `type_spans`), which
/// keeps the bound safe.
final class LongSpanTable {
    /// Samples lasting longer than this (10 minutes, µs) get an entry; minute-level data never does.
    static let threshold: Int64 = 600_000_000

    private let select: Statement
    private let selectDominating: Statement
    private let deleteDominated: Statement
    private let insert: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare(
            "SELECT duration_us FROM long_spans WHERE type = ?1 AND end_us >= ?2 ORDER BY end_us LIMIT 1")
        selectDominating = try database.prepare(
            "SELECT 1 FROM long_spans WHERE type = ?1 AND end_us >= ?2 AND duration_us >= ?3 LIMIT 1")
        deleteDominated = try database.prepare(
            "DELETE FROM long_spans WHERE type = ?1 AND end_us <= ?2 AND duration_us <= ?3")
        insert = try database.prepare("INSERT OR IGNORE INTO long_spans (type, end_us, duration_us) VALUES (?1, ?2, ?3)")
    }

    /// The longest duration among samples of the type with `typeCode` ending at or after `floor`, at least `threshold`.
    func maxDuration(typeCode: Int64, endingAtOrAfter floor: Int64) throws(BrokerError) -> Int64 {
        try select.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(floor, at: 2)
            let longest = try statement.step() ? statement.int64(at: 0) : 0
            return max(Self.threshold, longest)
        }
    }

    /// Records a sample of the type with `typeCode` ending at `end` that lasts `duration` (only when
    /// longer than `threshold` and not dominated), dropping the entries it dominates.
    func note(typeCode: Int64, end: Int64, duration: Int64) throws(BrokerError) {
        guard duration > Self.threshold else { return }
        let dominated = try selectDominating.run { statement throws(BrokerError) -> Bool in
            try statement.bind(typeCode, at: 1)
            try statement.bind(end, at: 2)
            try statement.bind(duration, at: 3)
            return try statement.step()
        }
        guard !dominated else { return }
        for statement in [deleteDominated, insert] {
            try statement.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(end, at: 2)
                try statement.bind(duration, at: 3)
                try statement.execute()
            }
        }
    }
}
