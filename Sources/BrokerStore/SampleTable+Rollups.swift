import BrokerModel
import BrokerPolicy

/// Statistics from the hour rollups (`HourRollupTable`): whole hours are added up from their rows,
/// the rest from the samples. docs/STATISTICS.md states where a rollup stands in for the samples.
extension SampleTable {
    /// The statistics SQL over pieces of start ranges, each attributed to a bucket: what the rollups
    /// do not cover (bucket edges off the hour, hours a rollup cannot stand in for).
    ///
    /// Parameters: ?1 a JSON array of [bucket index, lowest start, highest start] (inclusive);
    /// ?2 type code; ?3, ?4 the end range. One range scan of the (type, start_us) index per piece.
    static let piecesSQL = """
        WITH piece (i, lo, hi) AS (
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)
        )
        SELECT piece.i, count(*), sum(s.quantity), min(s.quantity), max(s.quantity)
        FROM piece CROSS JOIN samples AS s
        WHERE s.type = ?2 AND s.start_us BETWEEN piece.lo AND piece.hi
          AND +s.end_us BETWEEN ?3 AND ?4 AND +s.value_kind = 1
        GROUP BY piece.i
        ORDER BY piece.i
        """

    /// `piecesSQL` over one app's own samples (`samples_by_app_type_start`): ?1 … ?4 as there, ?5 the app code.
    static let ownPiecesSQL = """
        WITH piece (i, lo, hi) AS (
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)
        )
        SELECT piece.i, count(*), sum(s.quantity), min(s.quantity), max(s.quantity)
        FROM piece CROSS JOIN samples AS s INDEXED BY samples_by_app_type_start
        WHERE s.app = ?5 AND s.type = ?2 AND s.start_us BETWEEN piece.lo AND piece.hi
          AND +s.end_us BETWEEN ?3 AND ?4 AND +s.value_kind = 1
        GROUP BY piece.i
        ORDER BY piece.i
        """

    /// Per-bucket figures being added up.
    struct Tally {
        var count: [Int64]
        var sum: [Double]
        var minimum: [Double?]
        var maximum: [Double?]

        init(buckets: Int) {
            count = Array(repeating: 0, count: buckets)
            sum = Array(repeating: 0, count: buckets)
            minimum = Array(repeating: nil, count: buckets)
            maximum = Array(repeating: nil, count: buckets)
        }

        mutating func add(_ bucket: Int, count: Int64, sum: Double, minimum: Double?, maximum: Double?) {
            self.count[bucket] += count
            self.sum[bucket] += sum
            if let minimum { self.minimum[bucket] = Swift.min(self.minimum[bucket] ?? minimum, minimum) }
            if let maximum { self.maximum[bucket] = Swift.max(self.maximum[bucket] ?? maximum, maximum) }
        }

        /// The buckets with samples, in order.
        func buckets(_ boundaries: [Int64]) -> [StatisticsBucket] {
            count.indices.filter { count[$0] > 0 }.map { index in
                StatisticsBucket(
                    startMicros: boundaries[index], endMicros: boundaries[index + 1], sampleCount: UInt64(count[index]),
                    sum: sum[index], average: sum[index] / Double(count[index]), minimum: minimum[index], maximum: maximum[index])
            }
        }
    }

    /// The instants whole hours are looked for within: far enough from Int64's ends that an hour
    /// times 1 h never overflows (about ±146,000 years). Outside them the samples are read.
    static let rollupLimit: Int64 = 1 << 62

    /// The first and last whole hour within [low, high] (inclusive µs), kept to `rollupLimit`; the
    /// range is empty when there is none.
    static func wholeHours(from low: Int64, through high: Int64) -> (first: Int64, last: Int64) {
        (ceilingHour(max(low, -rollupLimit)), HourRollupTable.hour(of: min(high, rollupLimit) + 1) - 1)
    }

    /// ⌈instant / 1 h⌉ (for instants within ±`rollupLimit`).
    static func ceilingHour(_ instant: Int64) -> Int64 {
        let hour = HourRollupTable.hour(of: instant)
        return hour * HourRollupTable.hourMicros == instant ? hour : hour + 1
    }

    /// The bucket [b_i, b_i+1) holding `instant`, or nil outside [b_0, b_N).
    static func bucket(of instant: Int64, _ boundaries: [Int64]) -> Int? {
        guard let first = boundaries.first, let last = boundaries.last, instant >= first, instant < last else { return nil }
        var (low, high) = (0, boundaries.count - 1)
        while high - low > 1 {
            let middle = (low + high) / 2
            if boundaries[middle] <= instant { low = middle } else { high = middle }
        }
        return low
    }

    /// Count, sum, minimum and maximum per bucket of the quantity rows within `bounds`, of every app
    /// (`appCode` nil) or of one app, with each sample in the bucket of its start; the caller keeps
    /// `bounds` to rows the reader may see (every row starting in them, for every app).
    ///
    /// A bucket's whole hours [h, h + 1 h) that start at or after the lowest end come from the
    /// rollups when their latest end is within the end range; the rest of the bucket (its edges off
    /// the hour, and such hours where a sample ends too late) from the samples (`piecesSQL`).
    func rolledUpBuckets(typeCode: Int64, bounds: SampleBounds?, appCode: Int64?, boundaries: [Int64]) throws(BrokerError) -> [StatisticsBucket] {
        guard let bounds, boundaries.count >= 2 else { return [] }
        let hourMicros = HourRollupTable.hourMicros
        var tally = Tally(buckets: boundaries.count - 1)
        var pieces: [(bucket: Int, low: Int64, high: Int64)] = []
        var interiors: [(bucket: Int, first: Int64, last: Int64)] = []
        for index in 0..<(boundaries.count - 1) {
            let low = max(boundaries[index], bounds.startLow)
            let high = min(boundaries[index + 1] - 1, bounds.startHigh)
            guard low <= high else { continue }
            let (firstHour, lastHour) = Self.wholeHours(from: max(low, bounds.endLow), through: high)
            guard firstHour <= lastHour else {
                pieces.append((index, low, high))
                continue
            }
            if low < firstHour * hourMicros { pieces.append((index, low, firstHour * hourMicros - 1)) }
            if (lastHour + 1) * hourMicros <= high { pieces.append((index, (lastHour + 1) * hourMicros, high)) }
            interiors.append((index, firstHour, lastHour))
        }
        if let first = interiors.first, let last = interiors.last {
            let rows = try rollups.rows(typeCode: typeCode, appCode: appCode, hours: first.first...last.last)
            var slot = 0
            var index = 0
            while index < rows.count {
                // The rows of one hour (one per app).
                let hour = rows[index].hour
                var end = index + 1
                while end < rows.count, rows[end].hour == hour { end += 1 }
                defer { index = end }
                while slot < interiors.count, interiors[slot].last < hour { slot += 1 }
                guard slot < interiors.count, interiors[slot].first <= hour else { continue }
                let bucket = interiors[slot].bucket
                if rows[index..<end].allSatisfy({ $0.maxEnd <= bounds.endHigh }) {
                    for row in rows[index..<end] {
                        tally.add(bucket, count: row.count, sum: row.total, minimum: row.lowest, maximum: row.highest)
                    }
                } else {
                    // A sample of the hour ends past the range: the hour's samples decide (all its apps').
                    pieces.append((bucket, hour * hourMicros, hour * hourMicros + hourMicros - 1))
                }
            }
        }
        if !pieces.isEmpty {
            let json = "[" + pieces.map { "[\($0.bucket),\($0.low),\($0.high)]" }.joined(separator: ",") + "]"
            try (appCode == nil ? self.pieces : ownPieces).run { statement throws(BrokerError) in
                try statement.bind(json, at: 1)
                try statement.bind(typeCode, at: 2)
                try statement.bind(bounds.endLow, at: 3)
                try statement.bind(bounds.endHigh, at: 4)
                if let appCode { try statement.bind(appCode, at: 5) }
                while try statement.step() {
                    tally.add(Int(statement.int64(at: 0)), count: statement.int64(at: 1), sum: statement.double(at: 2),
                              minimum: statement.double(at: 3), maximum: statement.double(at: 4))
                }
            }
        }
        return tally.buckets(boundaries)
    }
}
