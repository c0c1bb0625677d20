import BrokerSupport
import Foundation
@testable import healthload
import Testing

/// The log-linear histogram: bucket layout, relative error, percentiles, merge and constant size.
@Suite("Latency histogram")
struct LatencyHistogramTests {
    @Test func bucketsAreContiguousAndEachValueMapsBackToItsBucket() {
        for index in 0..<(LatencyHistogram.bucketCount - 1) {
            let lower = LatencyHistogram.lowerBound(ofBucket: index)
            let width = LatencyHistogram.width(ofBucket: index)
            #expect(LatencyHistogram.bucketIndex(of: lower) == index)
            #expect(LatencyHistogram.bucketIndex(of: lower + width - 1) == index)
            #expect(LatencyHistogram.lowerBound(ofBucket: index + 1) == lower + width)
        }
    }

    @Test func everyBucketIsAtMostOne128thOfItsValuesWide() {
        for index in (2 * LatencyHistogram.subBucketCount)..<LatencyHistogram.bucketCount {
            let lower = Double(LatencyHistogram.lowerBound(ofBucket: index))
            let width = Double(LatencyHistogram.width(ofBucket: index))
            #expect(width / lower <= 1.0 / 128 + 1e-12)
        }
    }

    @Test func aRecordedValueComesBackWithinOnePercentFromOneNanosecondToAnHour() {
        var generator = SplitMix64(seed: 42)
        var worst = 0.0
        for _ in 0..<20_000 {
            // Log-uniform over 1 ns … 3.6e12 ns.
            let value = UInt64(exp(Double.random(in: 0...log(3.6e12), using: &generator)))
            var histogram = LatencyHistogram()
            histogram.record(max(value, 1))
            for percentile in [0.0, 50, 99.9] {
                let reported = Double(histogram.value(atPercentile: percentile))
                worst = max(worst, abs(reported - Double(max(value, 1))) / Double(max(value, 1)))
            }
            let representative = Double(LatencyHistogram.representative(ofBucket: LatencyHistogram.bucketIndex(of: max(value, 1))))
            let error = abs(representative - Double(max(value, 1))) / Double(max(value, 1))
            #expect(error <= 1.0 / 256 + 1e-9)
        }
        #expect(worst <= 0.01)
    }

    @Test func percentilesOfAUniformDistributionAreWithinOnePercent() {
        var histogram = LatencyHistogram()
        for micros in 1...100_000 { histogram.record(UInt64(micros) * 1_000) }
        for (percentile, expected) in [(50.0, 50_000.0), (90, 90_000), (99, 99_000), (99.9, 99_900), (100, 100_000)] {
            let micros = Double(histogram.value(atPercentile: percentile)) / 1_000
            #expect(abs(micros - expected) / expected <= 0.01, "p\(percentile) = \(micros) µs, expected \(expected)")
        }
        #expect(histogram.value(atPercentile: 0) == 1_000)
        #expect(abs(histogram.mean - 50_000.5 * 1_000) < 1)
    }

    @Test func percentilesOfAnExponentialDistributionMatchTheSortedValues() {
        var generator = SplitMix64(seed: 7)
        var histogram = LatencyHistogram()
        var values: [UInt64] = []
        for _ in 0..<200_000 {
            // Exponential with a 50 µs mean, plus a 10 µs floor.
            let value = UInt64(10_000 - 50_000 * log(1 - Double.random(in: 0..<1, using: &generator)))
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for percentile in [50.0, 90, 99, 99.9, 99.99] {
            let rank = Int((percentile / 100 * Double(values.count)).rounded(.up)) - 1
            let exact = Double(values[rank])
            let reported = Double(histogram.value(atPercentile: percentile))
            #expect(abs(reported - exact) / exact <= 0.01, "p\(percentile): \(reported) vs \(exact)")
        }
        #expect(histogram.value(atPercentile: 100) == values.last)
        #expect(histogram.minValue == values.first)
    }

    @Test func mergingHalvesEqualsRecordingEverything() {
        var generator = SplitMix64(seed: 3)
        var whole = LatencyHistogram()
        var first = LatencyHistogram()
        var second = LatencyHistogram()
        for index in 0..<50_000 {
            let value = UInt64.random(in: 1...5_000_000_000, using: &generator)
            whole.record(value)
            if index % 2 == 0 { first.record(value) } else { second.record(value) }
        }
        var merged = first
        merged.merge(second)
        #expect(merged.counts == whole.counts)
        #expect(merged.totalCount == whole.totalCount)
        #expect(merged.minValue == whole.minValue)
        #expect(merged.maxValue == whole.maxValue)
        for percentile in [50.0, 99, 99.99] {
            #expect(merged.value(atPercentile: percentile) == whole.value(atPercentile: percentile))
        }
        var empty = LatencyHistogram()
        empty.merge(LatencyHistogram())
        #expect(empty.isEmpty)
    }

    @Test func sizeIsFixedWhateverIsRecordedAndHugeValuesKeepAnExactMaximum() {
        var histogram = LatencyHistogram()
        #expect(histogram.counts.count == LatencyHistogram.bucketCount)
        #expect(LatencyHistogram.bucketCount == 4_864)
        for exponent in 0..<64 { histogram.record(UInt64(1) << UInt64(exponent)) }
        histogram.record(.max)
        #expect(histogram.counts.count == LatencyHistogram.bucketCount)
        #expect(histogram.maxValue == .max)
        #expect(histogram.value(atPercentile: 100) == .max)
        #expect(histogram.totalCount == 65)
    }

    @Test func anEmptyHistogramReportsZeros() {
        let histogram = LatencyHistogram()
        #expect(histogram.value(atPercentile: 50) == 0)
        #expect(histogram.mean == 0)
        #expect(histogram.percentileTable().isEmpty)
    }

    @Test func thePercentileTableClimbsTowardNinetyNinePointNineNineNineAndEndsAtTheMaximum() {
        var histogram = LatencyHistogram()
        for value in 1...1_000_000 { histogram.record(UInt64(value)) }
        let table = histogram.percentileTable()
        #expect(table.first?.percentile == 0)
        #expect(table.last?.percentile == 100)
        #expect(table.last?.latencyMicros == 1_000)
        #expect(table.dropLast().last.map { $0.percentile <= 99.999 && $0.percentile > 99.99 } == true)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0.percentile < $1.percentile && $0.latencyMicros <= $1.latencyMicros })
        // Few values: stop where the count no longer resolves the percentile.
        var small = LatencyHistogram()
        for value in 1...100 { small.record(UInt64(value)) }
        #expect(small.percentileTable().dropLast().allSatisfy { $0.percentile <= 99 })
    }
}
