import BrokerModel
import BrokerPolicy

extension SampleTable {
    /// The sums of a cumulative type with overlapping sources merged by `priority`, over exactly
    /// the rows the SQL statistics would add up (the reader's visible rows of the range); nil when
    /// fewer than two sources have such rows, so the caller keeps the SQL aggregate (one source
    /// has nothing to merge, and costs what it did).
    ///
    /// The check costs one seek per source that ever stored the type, within what the reader may
    /// see. The merge reads the rows (start, end, value, app) and sweeps them (`SourceMerge`):
    /// O(n log n) for n rows.
    func mergedStatistics(
        typeCode: Int64, all: SampleBounds?, own: SampleBounds?, floor: Int64, ownCode: Int64?, spans: ReadSpans,
        priority: [String], boundaries: [Int64]
    ) throws(BrokerError) -> [StatisticsBucket]? {
        // The rows the SQL statistics count start within [b0, bN).
        func clipped(_ bounds: SampleBounds?) -> SampleBounds? {
            guard var bounds, let first = boundaries.first, let last = boundaries.last else { return nil }
            bounds.startLow = max(bounds.startLow, first)
            bounds.startHigh = min(bounds.startHigh, last - 1)
            return bounds.startLow <= bounds.startHigh && bounds.endLow <= bounds.endHigh ? bounds : nil
        }
        let candidates = try typeApps.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            var codes: [Int64] = []
            while try statement.step() { codes.append(statement.int64(at: 0)) }
            return codes
        }
        guard candidates.count > 1 else { return nil }
        // The visible parts: everything from the floor on (all of it with full access), the rows
        // straddling the floor, and the reader's own rows ending before it.
        let fromFloor = clipped(floor > .min ? all?.startingAtOrAfter(floor) : all)
        let ownBefore = floor > .min ? clipped(own?.endingBefore(floor)) : nil
        var straddling: [(start: Int64, end: Int64, value: Double, app: Int64)] = []
        if floor > .min, let cut = all?.straddling(floor, maxDurationMicros: spans.all),
           let first = boundaries.first, let last = boundaries.last {
            straddling = try rows(straddlingMergeRows, cut, typeCode: typeCode, appCode: nil).filter { $0.start >= first && $0.start < last }
        }
        var visible = Set(straddling.map(\.app))
        for code in candidates where !visible.contains(code) {
            if try any(fromFloor, typeCode: typeCode, appCode: code) {
                visible.insert(code)
            } else if code == ownCode, try any(ownBefore, typeCode: typeCode, appCode: code) {
                visible.insert(code)
            }
            if visible.count > 1 { break }
        }
        guard visible.count > 1 else { return nil }
        var found = straddling
        if let fromFloor { found += try rows(mergeRows, fromFloor, typeCode: typeCode, appCode: nil) }
        if let ownCode, let ownBefore { found += try rows(ownMergeRows, ownBefore, typeCode: typeCode, appCode: ownCode) }
        var names: [Int64: String] = [:]
        for code in Set(found.map(\.app)) { names[code] = try apps.name(of: code) }
        let ranks = SourceMerge.ranks(priority: priority, sources: names.values)
        // Listed apps without rows keep their places: the ranks the rows use are renumbered densely.
        let used = Set(names.values.compactMap { ranks[$0] }).sorted()
        var codeRanks: [Int64: Int] = [:]
        for (code, name) in names { codeRanks[code] = ranks[name].flatMap { used.firstIndex(of: $0) } ?? used.count }
        let items = found.map { row in
            SourceMerge.Item(startMicros: row.start, endMicros: row.end, value: row.value, rank: codeRanks[row.app] ?? used.count)
        }
        return SourceMerge.buckets(items, boundaries: boundaries)
    }

    /// Whether the app with `appCode` has a quantity row of the type within `bounds` (one seek of its own index).
    private func any(_ bounds: SampleBounds?, typeCode: Int64, appCode: Int64) throws(BrokerError) -> Bool {
        guard let bounds else { return false }
        return try anyOwnInRange.run { statement throws(BrokerError) -> Bool in
            try statement.bind(typeCode, at: 2)
            try bounds.bind(to: statement, from: 3)
            try statement.bind(appCode, at: 7)
            return try statement.step()
        }
    }

    /// The rows (start, end, value, app) `statement` (`mergeRows` and the like) reads within `bounds`.
    private func rows(
        _ statement: Statement, _ bounds: SampleBounds, typeCode: Int64, appCode: Int64?
    ) throws(BrokerError) -> [(start: Int64, end: Int64, value: Double, app: Int64)] {
        try statement.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try bounds.bind(to: statement, from: 2)
            if let appCode { try statement.bind(appCode, at: 6) }
            var rows: [(start: Int64, end: Int64, value: Double, app: Int64)] = []
            while try statement.step() {
                rows.append((statement.int64(at: 0), statement.int64(at: 1), statement.double(at: 2), statement.int64(at: 3)))
            }
            return rows
        }
    }
}
