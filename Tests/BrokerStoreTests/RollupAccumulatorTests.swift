@testable import BrokerStore
import BrokerSupport
import Testing

/// The one-pass accumulator gives exactly the rows `HourRollupTable.row` makes from each hour's
/// items: in start order (its sweep) and shuffled (the hours it marks for the caller's fallback).
@Suite("Rollup accumulator")
struct RollupAccumulatorTests {
    static let hour = HourRollupTable.hourMicros

    /// Random items of two types over a few hours (some before 1970): instants, minutes, long spans reaching into later hours.
    static func items(_ random: inout SplitMix64, count: Int) -> [(type: Int64, item: HourRollupTable.Item)] {
        func pick(_ range: Int64) -> Int64 { Int64(random.next() % UInt64(range)) }
        var items: [(type: Int64, item: HourRollupTable.Item)] = []
        for _ in 0..<count {
            let start = (pick(6) - 2) * hour + pick(hour)
            let length: Int64 = switch pick(4) { case 0: 0; case 1: 60_000_000; case 2: pick(hour / 4); default: pick(3 * hour) }
            items.append((1 + pick(2), HourRollupTable.Item(start: start, end: start + length, value: Double(pick(1_000)) / 7)))
        }
        return items
    }

    /// Runs `items` through an accumulator and fixes the coverage of out-of-order hours as `addToRollups` does.
    static func accumulate(_ items: [(type: Int64, item: HourRollupTable.Item)]) -> [RollupKey: (row: HourRollupTable.Row, firstStart: Int64, ordered: Bool)] {
        var accumulator = RollupAccumulator(app: 7)
        for (type, item) in items { accumulator.add(type: type, start: item.start, end: item.end, value: item.value) }
        var result: [RollupKey: (row: HourRollupTable.Row, firstStart: Int64, ordered: Bool)] = [:]
        for slot in accumulator.slots {
            var row = slot.row
            if !slot.ordered {
                let mine = items.filter { $0.type == slot.key.type && HourRollupTable.hour(of: $0.item.start) == slot.key.hour }.map(\.item)
                row.covered = HourRollupTable.coverage(of: mine, hour: slot.key.hour)
            }
            result[slot.key] = (row, slot.firstStart, slot.ordered)
        }
        return result
    }

    @Test(arguments: [false, true]) func rowsMatchTheItemsOfEachHour(sorted: Bool) {
        var random = SplitMix64(seed: sorted ? 151 : 152)
        var orderedSeen = 0
        for round in 0..<200 {
            var items = Self.items(&random, count: 1 + round % 40)
            if sorted { items.sort { $0.item.start < $1.item.start } }
            let got = Self.accumulate(items)
            let grouped = Dictionary(grouping: items) { RollupKey(type: $0.type, hour: HourRollupTable.hour(of: $0.item.start)) }
            #expect(Set(got.keys) == Set(grouped.keys))
            for (key, entries) in grouped {
                guard let want = HourRollupTable.row(hour: key.hour, app: 7, items: entries.map(\.item)), let entry = got[key] else {
                    Issue.record("no row for \(key)")
                    continue
                }
                #expect(entry.row.count == want.count && entry.row.total == want.total && entry.row.lowest == want.lowest && entry.row.highest == want.highest)
                #expect(entry.row.maxEnd == want.maxEnd && entry.row.covered == want.covered && entry.row.hour == key.hour && entry.row.app == 7)
                #expect(entry.firstStart == entries.map(\.item.start).min())
                if sorted { #expect(entry.ordered) }
                if entry.ordered { orderedSeen += 1 }
            }
        }
        #expect(orderedSeen > 0)
    }
}
