import BrokerModel
import BrokerPolicy

extension SampleTable {
    /// The sums of a cumulative type with overlapping sources merged by the person's order, over
    /// exactly the rows the SQL statistics would add up (the reader's visible rows of the range);
    /// nil when fewer than two sources have such rows, so the caller keeps the SQL aggregate (one
    /// source has nothing to merge, and costs what it did).
    ///
    /// Whether there are two sources is decided from the visible rows alone: the rows straddling
    /// the floor (read anyway), then one scan of the rows from the floor on that stops at the first
    /// row of a source not yet seen (`firstOtherApp`), then one seek of the reader's own rows
    /// before the floor. No list of the apps that ever stored the type is read: its length, and a
    /// seek per entry, would depend on apps the reader may not see. The same holds for the order:
    /// `position` is asked for each visible source only (`SourcePriorityTable.position`).
    /// The merge reads the rows (start, end, value, app) and sweeps them (`SourceMerge`): O(n log n) for n rows.
    func mergedStatistics(
        typeCode: Int64, all: SampleBounds?, own: SampleBounds?, floor: Int64, ownCode: Int64?, spans: ReadSpans,
        position: (String) throws(BrokerError) -> Int?, boundaries: [Int64]
    ) throws(BrokerError) -> [StatisticsBucket]? {
        // The rows the SQL statistics count start within [b0, bN).
        func clipped(_ bounds: SampleBounds?) -> SampleBounds? {
            guard var bounds, let first = boundaries.first, let last = boundaries.last else { return nil }
            bounds.startLow = max(bounds.startLow, first)
            bounds.startHigh = min(bounds.startHigh, last - 1)
            return bounds.startLow <= bounds.startHigh && bounds.endLow <= bounds.endHigh ? bounds : nil
        }
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
        while visible.count < 2, let fromFloor,
              let other = try firstOtherApp(fromFloor, typeCode: typeCode, excluding: visible.count == 1 ? visible.first : nil) {
            visible.insert(other)
        }
        if visible.count < 2, let ownCode, !visible.contains(ownCode), try any(ownBefore, typeCode: typeCode, appCode: ownCode) {
            visible.insert(ownCode)
        }
        guard visible.count > 1 else { return nil }
        var found = straddling
        if let fromFloor { found += try rows(mergeRows, fromFloor, typeCode: typeCode, appCode: nil) }
        if let ownCode, let ownBefore { found += try rows(ownMergeRows, ownBefore, typeCode: typeCode, appCode: ownCode) }
        var names: [Int64: String] = [:]
        for code in Set(found.map(\.app)) { names[code] = try apps.name(of: code) }
        // The person's order cut to the visible sources, in its order: the ranks SourceMerge gives
        // are then dense, as they would be with the whole list renumbered over these sources.
        var listed: [(position: Int, name: String)] = []
        for name in names.values {
            if let place = try position(name) { listed.append((place, name)) }
        }
        let ranks = SourceMerge.ranks(priority: listed.sorted { $0.position < $1.position }.map(\.name), sources: names.values)
        let items = found.map { row in
            SourceMerge.Item(startMicros: row.start, endMicros: row.end, value: row.value, rank: names[row.app].flatMap { ranks[$0] } ?? ranks.count)
        }
        return SourceMerge.buckets(items, boundaries: boundaries)
    }

    /// The first app (in start order) with a quantity row of the type within `bounds` other than
    /// `excluded` (any app when nil), or nil: a scan of the start index that stops at that row.
    /// Every row it passes is within `bounds`, which the caller keeps to rows the reader may see.
    private func firstOtherApp(_ bounds: SampleBounds, typeCode: Int64, excluding excluded: Int64?) throws(BrokerError) -> Int64? {
        try firstOtherAppInRange.run { statement throws(BrokerError) -> Int64? in
            try statement.bind(typeCode, at: 1)
            try bounds.bind(to: statement, from: 2)
            try statement.bind(excluded, at: 6)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
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
    func rows(
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
