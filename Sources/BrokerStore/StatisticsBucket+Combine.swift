import BrokerModel

extension StatisticsBucket {
    /// The buckets of disjoint sets of samples added up per bucket (same start and end), in start order.
    ///
    /// A bucket found in one part only is kept exactly as SQLite computed it; where parts meet,
    /// counts and sums add, minimum and maximum combine, and the average is the sum over the count.
    static func combine(_ parts: [[StatisticsBucket]]) -> [StatisticsBucket] {
        guard parts.count > 1 else { return parts.first ?? [] }
        var byStart: [Int64: StatisticsBucket] = [:]
        for bucket in parts.joined() {
            guard let seen = byStart[bucket.startMicros] else {
                byStart[bucket.startMicros] = bucket
                continue
            }
            let count = seen.sampleCount + bucket.sampleCount
            let sum = Self.add(seen.sum, bucket.sum, +)
            byStart[bucket.startMicros] = StatisticsBucket(
                startMicros: seen.startMicros, endMicros: seen.endMicros, sampleCount: count,
                sum: sum, average: sum.map { $0 / Double(max(1, count)) },
                minimum: Self.add(seen.minimum, bucket.minimum, min), maximum: Self.add(seen.maximum, bucket.maximum, max))
        }
        return byStart.keys.sorted().compactMap { byStart[$0] }
    }

    /// `a` and `b` combined by `operation`, or whichever is present.
    private static func add(_ a: Double?, _ b: Double?, _ operation: (Double, Double) -> Double) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return operation(a, b)
    }
}
