import BrokerModel

/// The `hour_rollups` table: per (source app, quantity type, hour of start) the count, sum, minimum
/// and maximum of the app's quantity samples starting in that hour, the latest end among them and
/// how much of the hour they cover. Saves and deletes keep it in step in their own transaction.
///
/// Statistics add up whole hours from here instead of every sample (docs/STATISTICS.md says where
/// a rollup stands in for the samples and where they are read instead). Each row depends on one
/// app's samples of one hour only, so a reader that may see every sample starting in an hour may
/// read that hour's rows of every app, and a read-denied reader reads its own rows only.
final class HourRollupTable {
    /// One hour, in µs.
    static let hourMicros: Int64 = 3_600_000_000

    /// One row: an app's samples of a type starting in one hour, summed up.
    struct Row: Equatable {
        /// The hour: ⌊start / hourMicros⌋ (floor division, also before 1970).
        var hour: Int64
        var app: Int64
        var count: Int64
        var total: Double
        var lowest: Double
        var highest: Double
        /// The latest end of these samples (one may reach into later hours).
        var maxEnd: Int64
        /// A lower bound on the time of [hour, hour + 1 h) that the union of these samples covers:
        /// exact after a delete touched the hour or when saves came in time order (`add`).
        var covered: Int64
    }

    /// One sample as a row sees it.
    struct Item {
        var start: Int64
        var end: Int64
        var value: Double
    }

    private let upsert: Statement
    private let replace: Statement
    private let remove: Statement
    private let selectAll: Statement
    private let selectOwn: Statement
    private let selectSamples: Statement

    /// The hour holding `instant`.
    static func hour(of instant: Int64) -> Int64 {
        instant >= 0 ? instant / hourMicros : (instant + 1) / hourMicros - 1
    }

    /// Prepares the statements on `database` (statistics read there, as the sample aggregates do).
    init(database: Database) throws(BrokerError) {
        upsert = try database.prepare("""
            INSERT INTO hour_rollups (type, app, hour, sample_count, total, lowest, highest, max_end_us, covered_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (app, type, hour) DO UPDATE SET
                sample_count = sample_count + excluded.sample_count, total = total + excluded.total,
                lowest = min(lowest, excluded.lowest), highest = max(highest, excluded.highest),
                max_end_us = max(max_end_us, excluded.max_end_us),
                covered_us = CASE WHEN ?10 >= max_end_us THEN min(covered_us + excluded.covered_us, \(Self.hourMicros))
                                  ELSE max(covered_us, excluded.covered_us) END
            """)
        replace = try database.prepare("""
            INSERT OR REPLACE INTO hour_rollups (type, app, hour, sample_count, total, lowest, highest, max_end_us, covered_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        remove = try database.prepare("DELETE FROM hour_rollups WHERE app = ?2 AND type = ?1 AND hour = ?3")
        let columns = "hour, app, sample_count, total, lowest, highest, max_end_us, covered_us"
        // Every app's rows of a type by hour: only for hours whose samples the reader may all see.
        selectAll = try database.prepare("""
            SELECT \(columns) FROM hour_rollups INDEXED BY hour_rollups_by_type_hour
            WHERE type = ?1 AND hour BETWEEN ?2 AND ?3 ORDER BY hour, app
            """)
        // One app's rows (the primary key): a read-denied reader's, and own rows before a floor.
        selectOwn = try database.prepare("""
            SELECT \(columns) FROM hour_rollups WHERE app = ?4 AND type = ?1 AND hour BETWEEN ?2 AND ?3 ORDER BY hour
            """)
        // An app's quantity samples starting in one hour, in start order (its own covering index).
        selectSamples = try database.prepare("""
            SELECT start_us, end_us, quantity FROM samples INDEXED BY samples_by_app_type_start
            WHERE app = ?1 AND type = ?2 AND start_us BETWEEN ?3 AND ?4 AND +value_kind = 1
            ORDER BY start_us
            """)
    }

    /// The row of `items` (an app's samples of a type starting in `hour`); nil when there are none.
    static func row(hour: Int64, app: Int64, items: [Item]) -> Row? {
        guard let first = items.first else { return nil }
        var row = Row(hour: hour, app: app, count: 0, total: 0, lowest: first.value, highest: first.value, maxEnd: first.end, covered: 0)
        for item in items {
            row.count += 1
            row.total += item.value
            row.lowest = min(row.lowest, item.value)
            row.highest = max(row.highest, item.value)
            row.maxEnd = max(row.maxEnd, item.end)
        }
        row.covered = coverage(of: items, hour: hour)
        return row
    }

    /// The length of the union of the items' [start, end) within [hour, hour + 1 h).
    static func coverage(of items: [Item], hour: Int64) -> Int64 {
        let low = hour * hourMicros
        let high = low + hourMicros
        var spans = items.compactMap { item -> (Int64, Int64)? in
            let (start, end) = (max(item.start, low), min(item.end, high))
            return end > start ? (start, end) : nil
        }
        spans.sort { $0.0 < $1.0 }
        var covered: Int64 = 0
        var reach = low
        for (start, end) in spans where end > reach {
            covered += end - max(start, reach)
            reach = end
        }
        return covered
    }

    /// Adds `row` (new samples of one app, type and hour, the earliest starting at `firstStart`) to what the table holds.
    ///
    /// The covered time stays a lower bound of the union's: when every new sample starts at or
    /// after the latest end so far (a history saved in time order), the two unions are disjoint
    /// and their lengths add up; otherwise the larger of the two is kept.
    func add(_ row: Row, firstStart: Int64, typeCode: Int64) throws(BrokerError) {
        try upsert.run { statement throws(BrokerError) in
            try bind(row, typeCode: typeCode, to: statement)
            try statement.bind(firstStart, at: 10)
            try statement.execute()
        }
    }

    /// Rebuilds the row of (app, type, hour) from the samples the table `samples` holds now (after a delete).
    func recompute(typeCode: Int64, appCode: Int64, hour: Int64) throws(BrokerError) {
        let items = try selectSamples.run { statement throws(BrokerError) -> [Item] in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            try statement.bind(hour * Self.hourMicros, at: 3)
            try statement.bind(hour * Self.hourMicros + Self.hourMicros - 1, at: 4)
            var items: [Item] = []
            while try statement.step() { items.append(Item(start: statement.int64(at: 0), end: statement.int64(at: 1), value: statement.double(at: 2))) }
            return items
        }
        if let row = Self.row(hour: hour, app: appCode, items: items) {
            try replace.run { statement throws(BrokerError) in
                try bind(row, typeCode: typeCode, to: statement)
                try statement.execute()
            }
        } else {
            try remove.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(appCode, at: 2)
                try statement.bind(hour, at: 3)
                try statement.execute()
            }
        }
    }

    /// The rows of `hours` of every app (`appCode` nil) or of one app, by hour (then app).
    func rows(typeCode: Int64, appCode: Int64?, hours: ClosedRange<Int64>) throws(BrokerError) -> [Row] {
        try (appCode == nil ? selectAll : selectOwn).run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(hours.lowerBound, at: 2)
            try statement.bind(hours.upperBound, at: 3)
            if let appCode { try statement.bind(appCode, at: 4) }
            var rows: [Row] = []
            while try statement.step() {
                rows.append(Row(
                    hour: statement.int64(at: 0), app: statement.int64(at: 1), count: statement.int64(at: 2),
                    total: statement.double(at: 3), lowest: statement.double(at: 4), highest: statement.double(at: 5),
                    maxEnd: statement.int64(at: 6), covered: statement.int64(at: 7)))
            }
            return rows
        }
    }

    private func bind(_ row: Row, typeCode: Int64, to statement: Statement) throws(BrokerError) {
        try statement.bind(typeCode, at: 1)
        try statement.bind(row.app, at: 2)
        try statement.bind(row.hour, at: 3)
        try statement.bind(row.count, at: 4)
        try statement.bind(row.total, at: 5)
        try statement.bind(row.lowest, at: 6)
        try statement.bind(row.highest, at: 7)
        try statement.bind(row.maxEnd, at: 8)
        try statement.bind(row.covered, at: 9)
    }
}
