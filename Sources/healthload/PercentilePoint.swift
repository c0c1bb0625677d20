/// One row of a latency-percentile table: the share of calls at or below a latency.
struct PercentilePoint: Sendable, Equatable, Codable {
    /// The percentile, 0…100.
    var percentile: Double
    /// The latency at it, in microseconds.
    var latencyMicros: Double
    /// How many calls took at most this long.
    var countAtOrBelow: UInt64
}
