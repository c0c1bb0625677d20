#if canImport(Glibc)
import Glibc
#endif

extension LatencyHistogram {
    /// The percentiles an HdrHistogram-style plot samples: 0, 50, 75, 87.5, … with `ticksPerHalf`
    /// steps each time the distance to 100 % halves, up to `limit` (99.999 by default) or as far as
    /// the recorded count resolves, then 100.
    static func plotPercentiles(count: UInt64, ticksPerHalf: Int = 5, limit: Double = 99.999) -> [Double] {
        guard count > 0 else { return [] }
        var result: [Double] = []
        var step = 0
        // Stop where one call is more than the remaining share (1 / (1 - p) > count).
        let resolvable = 100 * (1 - 1 / Double(max(count, 1)))
        while true {
            let percentile = 100 * (1 - pow(0.5, Double(step) / Double(ticksPerHalf)))
            if percentile > limit || (percentile > resolvable && step > 0) { break }
            result.append(percentile)
            step += 1
        }
        result.append(100)
        return result
    }

    /// The latency-percentile table (microseconds) at `plotPercentiles`.
    func percentileTable(ticksPerHalf: Int = 5, limit: Double = 99.999) -> [PercentilePoint] {
        Self.plotPercentiles(count: totalCount, ticksPerHalf: ticksPerHalf, limit: limit).map { percentile in
            let value = value(atPercentile: percentile)
            return PercentilePoint(
                percentile: percentile, latencyMicros: Double(value) / 1_000,
                countAtOrBelow: count(atOrBelow: value))
        }
    }

    /// How many recorded values fall in buckets up to the one holding `value`.
    func count(atOrBelow value: UInt64) -> UInt64 {
        let last = Self.bucketIndex(of: value)
        var seen: UInt64 = 0
        for index in 0...last { seen &+= counts[index] }
        return seen
    }
}
