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
        /// The source's rank: lower ranks win.
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
                guard let segment = owned.segment(at: item.startMicros), segment.rank < item.rank else { return item.value }
                return 0
            }
            let uncovered = owned.measure(rank: item.rank, from: item.startMicros, to: item.endMicros)
            let duration = item.endMicros - item.startMicros
            if uncovered >= duration { return item.value }
            return item.value * (Double(uncovered) / Double(duration))
        }
    }

    /// The stretches of time each rank owns: where it is the best (lowest) rank with a sample.
    struct Owned {
        /// Every owned stretch in time order (disjoint): start, end, rank.
        var segments: [(start: Int64, end: Int64, rank: Int)] = []
        /// Per rank: its stretches' starts, ends and the running total of their lengths (one more entry).
        var starts: [Int: [Int64]] = [:]
        var ends: [Int: [Int64]] = [:]
        var totals: [Int: [Int64]] = [:]

        mutating func append(_ start: Int64, _ end: Int64, rank: Int) {
            if let last = segments.last, last.end == start, last.rank == rank {
                segments[segments.count - 1].end = end
                ends[rank]![ends[rank]!.count - 1] = end
                totals[rank]![totals[rank]!.count - 1] += end - start
                return
            }
            segments.append((start, end, rank))
            starts[rank, default: []].append(start)
            ends[rank, default: []].append(end)
            let before = totals[rank]?.last ?? 0
            if totals[rank] == nil { totals[rank] = [0] }
            totals[rank]!.append(before + end - start)
        }

        /// The owned stretch holding `instant` (start ≤ instant < end), if any.
        func segment(at instant: Int64) -> (start: Int64, end: Int64, rank: Int)? {
            // The last stretch starting at or before the instant.
            var (low, high) = (0, segments.count)
            while low < high {
                let middle = (low + high) / 2
                if segments[middle].start <= instant { low = middle + 1 } else { high = middle }
            }
            guard low > 0, segments[low - 1].end > instant else { return nil }
            return segments[low - 1]
        }

        /// How long `rank` owns within [from, to).
        func measure(rank: Int, from: Int64, to: Int64) -> Int64 {
            guard let starts = starts[rank], let ends = ends[rank], let totals = totals[rank] else { return 0 }
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
        var events: [(time: Int64, rank: Int, delta: Int)] = []
        events.reserveCapacity(items.count * 2)
        for item in items where item.endMicros > item.startMicros {
            events.append((item.startMicros, item.rank, 1))
            events.append((item.endMicros, item.rank, -1))
        }
        events.sort { $0.time < $1.time }
        var owned = Owned()
        var active: [Int: Int] = [:]
        var heap = MinHeap()
        var index = 0
        while index < events.count {
            let time = events[index].time
            while index < events.count, events[index].time == time {
                let event = events[index]
                let count = active[event.rank, default: 0] + event.delta
                active[event.rank] = count
                if event.delta > 0, count == 1 { heap.push(event.rank) }
                index += 1
            }
            while let best = heap.top, active[best, default: 0] == 0 { heap.pop() }
            guard index < events.count, let best = heap.top else { continue }
            let next = events[index].time
            owned.append(time, next, rank: best)
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
