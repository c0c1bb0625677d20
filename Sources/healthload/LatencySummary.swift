/// A latency distribution in a few numbers, in microseconds.
struct LatencySummary: Sendable, Equatable, Codable {
    /// Calls measured (those that ended OK).
    var count: UInt64
    /// The fastest.
    var minMicros: Double
    /// The mean.
    var meanMicros: Double
    /// The median.
    var p50Micros: Double
    /// The 90th percentile.
    var p90Micros: Double
    /// The 99th percentile.
    var p99Micros: Double
    /// The 99.9th percentile.
    var p999Micros: Double
    /// The slowest.
    var maxMicros: Double

    /// The summary of `histogram` (nanoseconds); all zero when it is empty.
    init(_ histogram: LatencyHistogram) {
        func micros(_ nanos: UInt64) -> Double { Double(nanos) / 1_000 }
        count = histogram.totalCount
        minMicros = histogram.isEmpty ? 0 : micros(histogram.minValue)
        meanMicros = histogram.mean / 1_000
        p50Micros = micros(histogram.value(atPercentile: 50))
        p90Micros = micros(histogram.value(atPercentile: 90))
        p99Micros = micros(histogram.value(atPercentile: 99))
        p999Micros = micros(histogram.value(atPercentile: 99.9))
        maxMicros = micros(histogram.maxValue)
    }
}
