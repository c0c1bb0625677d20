/// A batch's rollup rows built in one pass over its saved rows, without an array per hour.
///
/// Batches come mostly in time order, so consecutive rows usually share an hour: the last key's
/// slot is checked first, and only a new key looks in the dictionary. Coverage (the union's length
/// within the hour) is swept as the items come while their starts do not go backwards; a key whose
/// items come out of start order is marked, and its coverage is worked out again from its items
/// (`HourRollupTable.coverage`) by the caller. Count, sum, minimum, maximum and latest end do not
/// depend on the order.
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

    private(set) var slots: [Slot] = []
    private var index: [RollupKey: Int] = [:]
    private var lastSlot = -1
    private let app: Int64

    /// An empty accumulator for `app`'s rows.
    init(app: Int64) {
        self.app = app
    }

    /// Adds one quantity sample of type `type` to its start's hour.
    mutating func add(type: Int64, start: Int64, end: Int64, value: Double) {
        let hour = HourRollupTable.hour(of: start)
        let slot: Int
        if lastSlot >= 0, slots[lastSlot].key.type == type, slots[lastSlot].key.hour == hour {
            slot = lastSlot
        } else {
            let key = RollupKey(type: type, hour: hour)
            if let known = index[key] {
                slot = known
            } else {
                slot = slots.count
                index[key] = slot
                let low = hour * HourRollupTable.hourMicros
                slots.append(Slot(
                    key: key,
                    row: HourRollupTable.Row(hour: hour, app: app, count: 0, total: 0, lowest: value, highest: value, maxEnd: end, covered: 0),
                    firstStart: start, lastStart: start, reach: low))
            }
            lastSlot = slot
        }
        slots[slot].row.count += 1
        slots[slot].row.total += value
        slots[slot].row.lowest = min(slots[slot].row.lowest, value)
        slots[slot].row.highest = max(slots[slot].row.highest, value)
        slots[slot].row.maxEnd = max(slots[slot].row.maxEnd, end)
        slots[slot].firstStart = min(slots[slot].firstStart, start)
        guard slots[slot].ordered else { return }
        guard start >= slots[slot].lastStart else {
            slots[slot].ordered = false
            return
        }
        slots[slot].lastStart = start
        // The sweep of `HourRollupTable.coverage` over items in start order, clipped to the hour.
        let high = hour * HourRollupTable.hourMicros + HourRollupTable.hourMicros
        let clippedEnd = min(end, high)
        let reach = slots[slot].reach
        if clippedEnd > reach {
            slots[slot].row.covered += clippedEnd - max(start, reach)
            slots[slot].reach = clippedEnd
        }
    }
}
