public import BrokerModel

/// Source priority for statistics of cumulative types, as HealthKit's statistics queries merge
/// overlapping samples of several sources: where a higher-priority source has data for a stretch
/// of time, lower-priority sources add nothing for that stretch.
///
/// A sample that is partly covered by higher-priority sources contributes the part of its value
/// proportional to its uncovered time (a uniform rate over the sample is assumed). Samples of the
/// same rank never cover one another (a source's own overlapping samples all count, as without
/// priority). An instant sample (start = end) counts fully unless a higher-priority sample spans
/// its instant, and covers nothing. Pure: the store hands it the samples the caller may see.
public enum SourceMerge {
    /// One sample as the merge sees it: its dates (µs), value and its source's rank (0 first).
    public struct Item: Sendable, Hashable {
        /// Start (µs).
        public var startMicros: Int64
        /// End (µs), at or after the start.
        public var endMicros: Int64
        /// The value in the type's canonical unit.
        public var value: Double
        /// The source's rank: lower ranks win; 0 or more and small (the merge keeps arrays per rank).
        public var rank: Int

        /// Creates an item.
        public init(startMicros: Int64, endMicros: Int64, value: Double, rank: Int) {
            self.startMicros = startMicros
            self.endMicros = endMicros
            self.value = value
            self.rank = rank
        }
    }

    /// The ranks of `sources`: those in `priority` by their place there, then every other source
    /// by app id (byte order), after all listed ones. Deterministic for the same inputs.
    public static func ranks(priority: [String], sources: some Sequence<String>) -> [String: Int] {
        var ranks: [String: Int] = [:]
        for appID in priority where ranks[appID] == nil { ranks[appID] = ranks.count }
        let rest = Set(sources).filter { ranks[$0] == nil }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for appID in rest { ranks[appID] = ranks.count }
        return ranks
    }

    /// What each item adds after merging, in the items' order. O(n log n).
    public static func contributions(_ items: [Item]) -> [Double] {
        let owned = ownedSegments(items)
        return items.map { item in
            if item.endMicros <= item.startMicros {
                // An instant: covered when a better rank owns the stretch holding it.
                guard let rank = owned.rank(at: item.startMicros), rank < item.rank else { return item.value }
                return 0
            }
            let uncovered = owned.measure(rank: item.rank, from: item.startMicros, to: item.endMicros)
            let duration = item.endMicros - item.startMicros
            if uncovered >= duration { return item.value }
            return item.value * (Double(uncovered) / Double(duration))
        }
    }

    /// The stretches of time each rank owns: where it is the best (lowest) rank with a sample.
    /// Ranks are indexes into the per-rank arrays (they are dense: `ranks` numbers from 0).
    struct Owned {
        /// Every owned stretch in time order (disjoint).
        var segmentStarts: [Int64] = []
        var segmentEnds: [Int64] = []
        var segmentRanks: [Int] = []
        /// Per rank: its stretches' starts, ends and the running total of their lengths (one more entry).
        var starts: [[Int64]]
        var ends: [[Int64]]
        var totals: [[Int64]]

        init(rankCount: Int) {
            starts = Array(repeating: [], count: rankCount)
            ends = Array(repeating: [], count: rankCount)
            totals = Array(repeating: [0], count: rankCount)
        }

        mutating func append(_ start: Int64, _ end: Int64, rank: Int) {
            let length = end - start
            if let last = segmentEnds.last, last == start, segmentRanks[segmentRanks.count - 1] == rank {
                segmentEnds[segmentEnds.count - 1] = end
                ends[rank][ends[rank].count - 1] = end
                totals[rank][totals[rank].count - 1] += length
                return
            }
            segmentStarts.append(start)
            segmentEnds.append(end)
            segmentRanks.append(rank)
            starts[rank].append(start)
            ends[rank].append(end)
            totals[rank].append(totals[rank][totals[rank].count - 1] + length)
        }

        /// The rank owning `instant` (the stretch with start ≤ instant < end), if any.
        func rank(at instant: Int64) -> Int? {
            let index = Self.partition(segmentStarts) { $0 <= instant }
            guard index > 0, segmentEnds[index - 1] > instant else { return nil }
            return segmentRanks[index - 1]
        }

        /// How long `rank` owns within [from, to).
        func measure(rank: Int, from: Int64, to: Int64) -> Int64 {
            guard rank < starts.count else { return 0 }
            let (starts, ends, totals) = (starts[rank], ends[rank], totals[rank])
            // First stretch ending after `from`, first stretch starting at or after `to`.
            let first = Self.partition(ends) { $0 <= from }
            let last = Self.partition(starts) { $0 < to }
            guard first < last else { return 0 }
            var total = totals[last] - totals[first]
            total -= max(0, from - starts[first])
            total -= max(0, ends[last - 1] - to)
            return max(0, total)
        }

        /// The first index where `before` is false (`before` holds for a prefix).
        static func partition(_ values: [Int64], _ before: (Int64) -> Bool) -> Int {
            var (low, high) = (0, values.count)
            while low < high {
                let middle = (low + high) / 2
                if before(values[middle]) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Sweeps the items' starts and ends in time order, keeping the active ranks in a min-heap
    /// (removed lazily) with a count per rank; each stretch between two event times belongs to the
    /// lowest active rank.
    static func ownedSegments(_ items: [Item]) -> Owned {
        let rankCount = (items.lazy.map(\.rank).max() ?? -1) + 1
        // An event: its time, and the rank shifted left by one with the low bit set for a start.
        var events: [(time: Int64, code: Int)] = []
        events.reserveCapacity(items.count * 2)
        for item in items where item.endMicros > item.startMicros {
            events.append((item.startMicros, item.rank << 1 | 1))
            events.append((item.endMicros, item.rank << 1))
        }
        events.sort { $0.time < $1.time }
        var owned = Owned(rankCount: rankCount)
        var active = [Int](repeating: 0, count: rankCount)
        var heap = MinHeap()
        var index = 0
        while index < events.count {
            let time = events[index].time
            while index < events.count, events[index].time == time {
                let (rank, starts) = (events[index].code >> 1, events[index].code & 1 == 1)
                active[rank] += starts ? 1 : -1
                if starts, active[rank] == 1 { heap.push(rank) }
                index += 1
            }
            while let best = heap.top, active[best] == 0 { heap.pop() }
            guard index < events.count, let best = heap.top else { continue }
            owned.append(time, events[index].time, rank: best)
        }
        return owned
    }

    /// A binary min-heap of ranks.
    struct MinHeap {
        private var values: [Int] = []

        var top: Int? { values.first }

        mutating func push(_ value: Int) {
            values.append(value)
            var child = values.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard values[child] < values[parent] else { break }
                values.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() {
            guard !values.isEmpty else { return }
            values.swapAt(0, values.count - 1)
            values.removeLast()
            var parent = 0
            while true {
                let (left, right) = (2 * parent + 1, 2 * parent + 2)
                var smallest = parent
                if left < values.count, values[left] < values[smallest] { smallest = left }
                if right < values.count, values[right] < values[smallest] { smallest = right }
                guard smallest != parent else { break }
                values.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}

extension SourceMerge {
    /// The merged sum and sample count per bucket [b_i, b_i+1) holding each item's start, as the
    /// SQL statistics attribute a sample wholly to the bucket of its start (so one source's result
    /// is the same either way); items starting outside every bucket are left out, and so are
    /// buckets without items. An item's merged part may be lowered by a higher-priority sample in
    /// another bucket (a watch sample before midnight covering part of a phone sample after it).
    public static func buckets(_ items: [Item], boundaries: [Int64]) -> [StatisticsBucket] {
        guard boundaries.count >= 2 else { return [] }
        let parts = contributions(items)
        var sums = [Double](repeating: 0, count: boundaries.count - 1)
        var counts = [UInt64](repeating: 0, count: boundaries.count - 1)
        for (item, part) in zip(items, parts) {
            let start = item.startMicros
            guard start >= boundaries[0], start < boundaries[boundaries.count - 1] else { continue }
            // The last boundary at or before the start.
            var (low, high) = (0, boundaries.count - 1)
            while high - low > 1 {
                let middle = (low + high) / 2
                if boundaries[middle] <= start { low = middle } else { high = middle }
            }
            sums[low] += part
            counts[low] += 1
        }
        return counts.indices.filter { counts[$0] > 0 }.map { index in
            StatisticsBucket(
                startMicros: boundaries[index], endMicros: boundaries[index + 1], sampleCount: counts[index],
                sum: sums[index], average: sums[index] / Double(counts[index]), minimum: nil, maximum: nil)
        }
    }
}
