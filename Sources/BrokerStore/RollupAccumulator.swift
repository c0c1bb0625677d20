/// A batch's rollup rows built in one pass over its saved rows, without an array per hour.
///
/// Batches come mostly in time order, so consecutive rows usually share an hour: the current key's
/// slot is kept out of the array and updated in place, and only a change of key looks in the
/// dictionary. Coverage (the union's length within the hour) is swept as the items come while their
/// starts do not go backwards; a key whose items come out of start order is marked, and its coverage
/// is worked out again from its items (`HourRollupTable.coverage`) by the caller. Count, sum,
/// minimum, maximum and latest end do not depend on the order.
struct RollupAccumulator {
    /// One key's running totals.
    struct Slot {
        let key: RollupKey
        var row: HourRollupTable.Row
        /// The earliest start among the key's items.
        var firstStart: Int64
        /// The latest start so far (items in start order never go below it).
        var lastStart: Int64
        /// How far into the hour the sweep has covered, and whether the items came in start order.
        var reach: Int64
        var ordered = true
    }

    /// Every key's slot, in the order the keys were first met.
    var slots: [Slot] {
        var all = stored
        if currentIndex >= 0 { all[currentIndex] = current }
        return all
    }

    /// The slots, except that the current key's lives in `current` while its rows come (a stored
    /// property updated in place: no array access per row).
    private var stored: [Slot] = []
    private var index: [RollupKey: Int] = [:]
    private var current: Slot
    private var currentIndex = -1
    private let app: Int64

    /// An empty accumulator for `app`'s rows.
    init(app: Int64) {
        self.app = app
        // A placeholder no row matches (type codes are positive); `currentIndex` -1 says it is not a slot.
        current = Slot(
            key: RollupKey(type: .min, hour: .min),
            row: HourRollupTable.Row(hour: .min, app: app, count: 0, total: 0, lowest: 0, highest: 0, maxEnd: 0, covered: 0),
            firstStart: 0, lastStart: 0, reach: 0)
    }

    /// Adds one quantity sample of type `type` to its start's hour.
    mutating func add(type: Int64, start: Int64, end: Int64, value: Double) {
        let hour = HourRollupTable.hour(of: start)
        if currentIndex < 0 || current.key.type != type || current.key.hour != hour {
            switchTo(RollupKey(type: type, hour: hour), start: start, end: end, value: value)
        }
        current.row.count += 1
        current.row.total += value
        current.row.lowest = min(current.row.lowest, value)
        current.row.highest = max(current.row.highest, value)
        current.row.maxEnd = max(current.row.maxEnd, end)
        current.firstStart = min(current.firstStart, start)
        guard current.ordered else { return }
        guard start >= current.lastStart else {
            current.ordered = false
            return
        }
        current.lastStart = start
        // The sweep of `HourRollupTable.coverage` over items in start order, clipped to the hour.
        let clippedEnd = min(end, hour * HourRollupTable.hourMicros + HourRollupTable.hourMicros)
        if clippedEnd > current.reach {
            current.row.covered += clippedEnd - max(start, current.reach)
            current.reach = clippedEnd
        }
    }

    /// Puts the current slot back and makes `key`'s current (a new slot, seeded with this row's values, when first met).
    private mutating func switchTo(_ key: RollupKey, start: Int64, end: Int64, value: Double) {
        if currentIndex >= 0 { stored[currentIndex] = current }
        if let known = index[key] {
            currentIndex = known
            current = stored[known]
            return
        }
        currentIndex = stored.count
        index[key] = currentIndex
        current = Slot(
            key: key,
            row: HourRollupTable.Row(hour: key.hour, app: app, count: 0, total: 0, lowest: value, highest: value, maxEnd: end, covered: 0),
            firstStart: start, lastStart: start, reach: key.hour * HourRollupTable.hourMicros)
        stored.append(current)
    }
}
