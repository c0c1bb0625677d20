import BrokerModel
import BrokerPolicy
import Testing

@Suite("Source priority merge")
struct SourceMergeTests {
    typealias Item = SourceMerge.Item

    static func item(_ start: Int64, _ end: Int64, _ value: Double, rank: Int) -> Item {
        Item(startMicros: start, endMicros: end, value: value, rank: rank)
    }

    @Test func aFullyCoveredLowerSourceAddsNothing() {
        let watch = Self.item(0, 100, 500, rank: 0)
        let phone = Self.item(0, 100, 480, rank: 1)
        #expect(SourceMerge.contributions([watch, phone]) == [500, 0])
        #expect(SourceMerge.contributions([phone, watch]) == [0, 500])
        // The other way round: the phone first.
        #expect(SourceMerge.contributions([Self.item(0, 100, 500, rank: 1), Self.item(0, 100, 480, rank: 0)]) == [0, 480])
    }

    @Test func aPartlyCoveredSampleCountsItsUncoveredTimePerRate() {
        // The phone's [50, 150) is covered by the watch for [50, 100): half of 200 remains.
        let parts = SourceMerge.contributions([Self.item(0, 100, 300, rank: 0), Self.item(50, 150, 200, rank: 1)])
        #expect(parts == [300, 100])
        // Covered in the middle only: a quarter of the time is covered.
        let middle = SourceMerge.contributions([Self.item(25, 50, 9, rank: 0), Self.item(0, 100, 400, rank: 1)])
        #expect(middle == [9, 300])
    }

    @Test func gapsBetweenHigherSamplesCountForTheLowerOne() {
        // Watch at [0, 10) and [30, 40); the phone's [0, 40) keeps [10, 30): half of 80.
        let parts = SourceMerge.contributions([
            Self.item(0, 10, 1, rank: 0), Self.item(30, 40, 1, rank: 0), Self.item(0, 40, 80, rank: 1),
        ])
        #expect(parts == [1, 1, 40])
        // Apart entirely: both count in full.
        #expect(SourceMerge.contributions([Self.item(0, 10, 5, rank: 0), Self.item(20, 30, 7, rank: 1)]) == [5, 7])
    }

    @Test func threeSourcesEachKeepWhatNoBetterOneCovers() {
        // Rank 0 [0, 10); rank 1 [5, 20) keeps [10, 20) = 2/3; rank 2 [0, 40) keeps [20, 40) = 1/2.
        let parts = SourceMerge.contributions([
            Self.item(0, 10, 10, rank: 0), Self.item(5, 20, 30, rank: 1), Self.item(0, 40, 100, rank: 2),
        ])
        #expect(parts[0] == 10)
        #expect(abs(parts[1] - 20) < 1e-9)
        #expect(parts[2] == 50)
    }

    @Test func oneSourcesOwnOverlapsAllCount() {
        #expect(SourceMerge.contributions([Self.item(0, 100, 3, rank: 0), Self.item(0, 100, 4, rank: 0)]) == [3, 4])
    }

    @Test func instantSamplesAreCoveredOnlyByABetterRankSpanningThem() {
        let parts = SourceMerge.contributions([
            Self.item(0, 10, 5, rank: 0), Self.item(5, 5, 2, rank: 1), Self.item(10, 10, 3, rank: 1), Self.item(5, 5, 1, rank: 0),
        ])
        #expect(parts == [5, 0, 3, 1])
    }

    @Test func bucketsTakeEachSampleByItsStartAndASampleInOneBucketCanCoverTheNext() {
        // Buckets [0, 100), [100, 200). The watch's [80, 120) starts in the first and covers [100, 120)
        // of the phone's [100, 140), which starts in the second: half of 60 remains there.
        let items = [
            Self.item(10, 20, 7, rank: 1), Self.item(80, 120, 40, rank: 0), Self.item(100, 140, 60, rank: 1),
            Self.item(250, 260, 9, rank: 0),
        ]
        let buckets = SourceMerge.buckets(items, boundaries: [0, 100, 200])
        #expect(buckets.map(\.startMicros) == [0, 100])
        #expect(buckets.map(\.sum) == [47, 30])
        #expect(buckets.map(\.sampleCount) == [2, 1])
    }

    @Test func ranksPutListedSourcesFirstThenTheRestByAppID() {
        let ranks = SourceMerge.ranks(priority: ["com.example.watch", "com.example.phone"], sources: ["b.app", "com.example.phone", "a.app"])
        #expect(ranks == ["com.example.watch": 0, "com.example.phone": 1, "a.app": 2, "b.app": 3])
        #expect(SourceMerge.ranks(priority: [], sources: ["z", "a"]) == ["a": 0, "z": 1])
    }

    @Test func manyOverlappingSamplesMatchABruteForceMerge() {
        var generator = SystemRandomNumberGenerator()
        var items: [Item] = []
        for _ in 0..<300 {
            let start = Int64.random(in: 0..<1000, using: &generator)
            let length = Int64.random(in: 0..<60, using: &generator)
            items.append(Self.item(start, start + length, Double.random(in: 0..<100, using: &generator), rank: Int.random(in: 0..<4, using: &generator)))
        }
        let parts = SourceMerge.contributions(items)
        for (item, part) in zip(items, parts) {
            guard item.endMicros > item.startMicros else { continue }
            // Brute force, one microsecond at a time: covered where a better rank has a sample.
            var uncovered = 0
            for t in item.startMicros..<item.endMicros where !items.contains(where: { $0.rank < item.rank && $0.startMicros <= t && t < $0.endMicros }) {
                uncovered += 1
            }
            let expected = item.value * Double(uncovered) / Double(item.endMicros - item.startMicros)
            #expect(abs(part - expected) < 1e-9)
        }
    }
}
