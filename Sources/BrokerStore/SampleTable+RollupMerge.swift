import BrokerModel
import BrokerPolicy

extension SampleTable {
    /// A sample as a merge of sources reads it.
    typealias MergeRow = (start: Int64, end: Int64, value: Double, app: Int64)

    /// `mergedStatistics` with whole hours taken from the rollups where they decide the merge alone
    /// (docs/STATISTICS.md); nil when fewer than two sources are visible in the range.
    ///
    /// The rows read: the rollups of the whole hours of the part from the floor on (every sample
    /// starting in them is visible), the samples of that part outside those hours, those
    /// straddling the floor and the reader's own before it. An hour's merged sum is its rollups' when
    /// - the best-ranked visible source T covers the whole hour with samples starting in it, and
    ///   every other source's samples starting in it end within it (T counts in full, they add
    ///   nothing), or
    /// - one source alone has samples starting in it, they end within it, and no other source's
    ///   sample starting earlier reaches into it (nothing to merge);
    /// and the hour lies in one bucket with every latest end within the range. Every other hour,
    /// and the rest of the range, is merged from its samples with those around it (within the
    /// longest span) as `SourceMerge` does.
    func mergedFromRollups(
        typeCode: Int64, all: SampleBounds?, own: SampleBounds?, floor: Int64, ownCode: Int64?, spans: ReadSpans,
        position: (String) throws(BrokerError) -> Int?, boundaries: [Int64]
    ) throws(BrokerError) -> [StatisticsBucket]? {
        guard let first = boundaries.first, let last = boundaries.last else { return nil }
        let hourMicros = HourRollupTable.hourMicros
        func clipped(_ bounds: SampleBounds?) -> SampleBounds? {
            guard var bounds else { return nil }
            bounds.startLow = max(bounds.startLow, first)
            bounds.startHigh = min(bounds.startHigh, last - 1)
            return bounds.startLow <= bounds.startHigh && bounds.endLow <= bounds.endHigh ? bounds : nil
        }
        let fromFloor = clipped(floor > .min ? all?.startingAtOrAfter(floor) : all)
        let ownBefore = floor > .min ? clipped(own?.endingBefore(floor)) : nil
        var context: [MergeRow] = []
        if floor > .min, let cut = all?.straddling(floor, maxDurationMicros: spans.all) {
            context = try rows(straddlingMergeRows, cut, typeCode: typeCode, appCode: nil).filter { $0.start >= first && $0.start < last }
        }
        if let ownCode, let ownBefore { context += try rows(ownMergeRows, ownBefore, typeCode: typeCode, appCode: ownCode) }
        // The whole hours of the part from the floor on, and its rows outside them.
        var hours: ClosedRange<Int64>?
        var rollupRows: [HourRollupTable.Row] = []
        if let fromFloor {
            let (firstHour, lastHour) = Self.wholeHours(from: max(fromFloor.startLow, fromFloor.endLow), through: fromFloor.startHigh)
            if firstHour <= lastHour {
                hours = firstHour...lastHour
                rollupRows = try rollups.rows(typeCode: typeCode, appCode: nil, hours: firstHour...lastHour)
                var before = fromFloor
                before.startHigh = min(before.startHigh, firstHour * hourMicros - 1)
                var after = fromFloor
                after.startLow = max(after.startLow, (lastHour + 1) * hourMicros)
                for part in [before, after] where part.startLow <= part.startHigh {
                    context += try rows(mergeRows, part, typeCode: typeCode, appCode: nil)
                }
            } else {
                context += try rows(mergeRows, fromFloor, typeCode: typeCode, appCode: nil)
            }
        }
        var codes = Set(context.map(\.app))
        for row in rollupRows { codes.insert(row.app) }
        guard codes.count > 1 else { return nil }
        // Ranks as in `mergedStatistics`: the person's order cut to the visible sources.
        var names: [Int64: String] = [:]
        for code in codes { names[code] = try apps.name(of: code) }
        var listed: [(position: Int, name: String)] = []
        for name in names.values {
            if let place = try position(name) { listed.append((place, name)) }
        }
        let ranks = SourceMerge.ranks(priority: listed.sorted { $0.position < $1.position }.map(\.name), sources: names.values)
        var rankOf: [Int64: Int] = [:]
        for (code, name) in names { rankOf[code] = ranks[name] ?? ranks.count }
        var tally = Tally(buckets: boundaries.count - 1)
        /// Merges `window` (every row that can overlap a row starting in [low, high)) and adds what
        /// the rows starting in [low, high) contribute.
        func sweep(_ window: [MergeRow], from low: Int64, to high: Int64) {
            let items = window.map { SourceMerge.Item(startMicros: $0.start, endMicros: $0.end, value: $0.value, rank: rankOf[$0.app] ?? ranks.count) }
            for (row, part) in zip(window, SourceMerge.contributions(items)) where row.start >= low && row.start < high {
                if let bucket = Self.bucket(of: row.start, boundaries) { tally.add(bucket, count: 1, sum: part, minimum: nil, maximum: nil) }
            }
        }
        guard let hours, let fromFloor else {
            sweep(context, from: .min, to: .max)
            return tally.buckets(boundaries)
        }
        let top = codes.min { (rankOf[$0] ?? .max, $0) < (rankOf[$1] ?? .max, $1) }
        // The latest end per source of the rows starting before the hour being looked at.
        var reach: [Int64: Int64] = [:]
        for row in context where row.start < hours.lowerBound * hourMicros { reach[row.app] = max(reach[row.app] ?? .min, row.end) }
        var fallback: [Int64] = []
        var index = 0
        while index < rollupRows.count {
            let hour = rollupRows[index].hour
            var end = index
            while end < rollupRows.count, rollupRows[end].hour == hour { end += 1 }
            let group = rollupRows[index..<end]
            let (low, high) = (hour * hourMicros, hour * hourMicros + hourMicros)
            var decided = false
            if let bucket = Self.bucket(of: low, boundaries), high <= boundaries[bucket + 1],
               group.allSatisfy({ $0.maxEnd <= fromFloor.endHigh }) {
                let count = group.reduce(Int64(0)) { $0 + $1.count }
                if let best = group.first(where: { $0.app == top }), best.covered >= hourMicros,
                   group.allSatisfy({ $0.app == top || $0.maxEnd <= high }) {
                    tally.add(bucket, count: count, sum: best.total, minimum: nil, maximum: nil)
                    decided = true
                } else if group.count == 1, let only = group.first, only.maxEnd <= high,
                          reach.allSatisfy({ $0.key == only.app || $0.value <= low }) {
                    tally.add(bucket, count: only.count, sum: only.total, minimum: nil, maximum: nil)
                    decided = true
                }
            }
            if !decided { fallback.append(hour) }
            for row in group { reach[row.app] = max(reach[row.app] ?? .min, row.maxEnd) }
            index = end
        }
        // What is left: the rows outside the whole hours, and the hours not decided, in runs.
        let span = max(0, spans.all, spans.own)
        let (hoursLow, hoursHigh) = (hours.lowerBound * hourMicros, (hours.upperBound + 1) * hourMicros)
        var regions: [(low: Int64, high: Int64)] = [(.min, hoursLow), (hoursHigh, .max)]
        for hour in fallback {
            if let lastRegion = regions.last, lastRegion.high == hour * hourMicros, lastRegion.low >= hoursLow {
                regions[regions.count - 1].high += hourMicros
            } else {
                regions.append((hour * hourMicros, hour * hourMicros + hourMicros))
            }
        }
        for region in regions {
            let (low, high) = (region.low, region.high)
            guard region.low >= hoursLow && region.high <= hoursHigh || context.contains(where: { $0.start >= low && $0.start < high }) else { continue }
            let (windowLow, windowHigh) = (low.subtractingReportingOverflow(span), high.addingReportingOverflow(span))
            let from = windowLow.overflow ? Int64.min : windowLow.partialValue
            let to = windowHigh.overflow ? Int64.max : windowHigh.partialValue
            var window = context.filter { $0.start >= from && $0.start < to }
            var inside = fromFloor
            inside.startLow = max(inside.startLow, from, hoursLow)
            inside.startHigh = min(inside.startHigh, to - 1, hoursHigh - 1)
            if inside.startLow <= inside.startHigh {
                window += try rows(mergeRows, inside, typeCode: typeCode, appCode: nil)
            }
            sweep(window, from: low, to: high)
        }
        return tally.buckets(boundaries)
    }
}
