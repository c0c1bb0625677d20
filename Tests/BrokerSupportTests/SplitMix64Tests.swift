import BrokerSupport
import Testing

@Suite struct SplitMix64Tests {
    @Test func matchesTheReferenceSequence() {
        // The first outputs of Vigna's splitmix64.c for seed 1234567.
        var random = SplitMix64(seed: 1_234_567)
        #expect(random.next() == 6_457_827_717_110_365_317)
        #expect(random.next() == 3_203_168_211_198_807_973)
        #expect(random.next() == 9_817_491_932_198_370_423)
    }

    @Test func streamsAreRepeatableAndIndependent() {
        var first = SplitMix64(seed: 7, stream: 100, 1)
        var again = SplitMix64(seed: 7, stream: 100, 1)
        var otherStream = SplitMix64(seed: 7, stream: 100, 2)
        var otherDay = SplitMix64(seed: 7, stream: 101, 1)
        let values = (0..<4).map { _ in first.next() }
        #expect(values == (0..<4).map { _ in again.next() })
        #expect(values != (0..<4).map { _ in otherStream.next() })
        #expect(values != (0..<4).map { _ in otherDay.next() })
    }

    @Test func drawsStayInRange() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<10_000 {
            let unit = random.unit()
            #expect(unit >= 0 && unit < 1)
            #expect((5...9).contains(random.integer(5...9)))
            let number = random.uniform(2..<3)
            #expect(number >= 2 && number < 3)
        }
        var counts = [0, 0, 0]
        for _ in 0..<30_000 { counts[random.integer(0...2)] += 1 }
        #expect(counts.allSatisfy { (9_000...11_000).contains($0) })
    }
}
