/// A log-linear latency histogram in nanoseconds (HdrHistogram-like: 128 sub-buckets per power of two).
///
/// Values below 256 ns have a bucket each. Above, every power of two [2^e, 2^(e+1)) is cut into 128
/// equal sub-buckets, so a bucket spans at most 1/128 of its smallest value and the value reported for
/// it (its midpoint) is within 1/256 (0.4 %) of every value it stands for. The bucket count is fixed,
/// whatever is recorded, so memory is constant. Values of 2^44 ns (about 4.9 hours) and more share the
/// last bucket; `maxValue` stays exact.
struct LatencyHistogram: Sendable, Equatable {
    /// log2 of the sub-buckets per power of two.
    static let subBucketBits = 7
    /// Sub-buckets per power of two (128): the relative bucket width is at most 1/128.
    static let subBucketCount = 1 << subBucketBits
    /// The largest power-of-two exponent with sub-buckets of its own.
    static let maxExponent = 43
    /// How many counters every histogram holds (4,864).
    static let bucketCount = (maxExponent - subBucketBits + 2) * subBucketCount

    /// One counter per bucket.
    private(set) var counts: [UInt64]
    /// Values recorded.
    private(set) var totalCount: UInt64 = 0
    /// The smallest value recorded (`UInt64.max` while empty).
    private(set) var minValue: UInt64 = .max
    /// The largest value recorded (0 while empty).
    private(set) var maxValue: UInt64 = 0
    /// The sum of the values recorded, for the mean.
    private(set) var sum: Double = 0

    /// Creates an empty histogram.
    init() {
        counts = Array(repeating: 0, count: Self.bucketCount)
    }

    /// The bucket holding `value`.
    @inline(__always)
    static func bucketIndex(of value: UInt64) -> Int {
        if value < UInt64(2 * subBucketCount) { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        if exponent > maxExponent { return bucketCount - 1 }
        let shift = exponent - subBucketBits
        return shift * subBucketCount + Int(truncatingIfNeeded: value >> UInt64(shift))
    }

    /// The smallest value bucket `index` holds.
    static func lowerBound(ofBucket index: Int) -> UInt64 {
        if index < 2 * subBucketCount { return UInt64(index) }
        let shift = index / subBucketCount - 1
        return UInt64(index - shift * subBucketCount) << UInt64(shift)
    }

    /// How many distinct values bucket `index` holds.
    static func width(ofBucket index: Int) -> UInt64 {
        if index < 2 * subBucketCount { return 1 }
        return 1 << UInt64(index / subBucketCount - 1)
    }

    /// The value reported for bucket `index`: its midpoint.
    static func representative(ofBucket index: Int) -> UInt64 {
        lowerBound(ofBucket: index) + (width(ofBucket: index) - 1) / 2
    }

    /// True when nothing was recorded.
    var isEmpty: Bool { totalCount == 0 }

    /// The mean of the values recorded (0 when empty).
    var mean: Double { totalCount == 0 ? 0 : sum / Double(totalCount) }

    /// Records one value.
    @inline(__always)
    mutating func record(_ value: UInt64) {
        counts[Self.bucketIndex(of: value)] &+= 1
        totalCount &+= 1
        sum += Double(value)
        if value < minValue { minValue = value }
        if value > maxValue { maxValue = value }
    }

    /// Records `count` occurrences of `value`.
    mutating func record(_ value: UInt64, count: UInt64) {
        guard count > 0 else { return }
        counts[Self.bucketIndex(of: value)] &+= count
        totalCount &+= count
        sum += Double(value) * Double(count)
        minValue = min(minValue, value)
        maxValue = max(maxValue, value)
    }

    /// Adds every value `other` recorded.
    mutating func merge(_ other: LatencyHistogram) {
        guard other.totalCount > 0 else { return }
        counts.withUnsafeMutableBufferPointer { mine in
            other.counts.withUnsafeBufferPointer { theirs in
                for index in 0..<Self.bucketCount { mine[index] &+= theirs[index] }
            }
        }
        totalCount &+= other.totalCount
        sum += other.sum
        minValue = min(minValue, other.minValue)
        maxValue = max(maxValue, other.maxValue)
    }

    /// The value at `percentile` (0…100): the smallest bucket holding at least that share of the
    /// values, reported as its midpoint clamped to the exact minimum and maximum (0 and 100 give
    /// those exactly). 0 when empty.
    func value(atPercentile percentile: Double) -> UInt64 {
        guard totalCount > 0 else { return 0 }
        let share = min(max(percentile, 0), 100) / 100
        if share <= 0 { return minValue }
        if share >= 1 { return maxValue }
        let rank = max(1, UInt64((share * Double(totalCount)).rounded(.up)))
        var seen: UInt64 = 0
        for index in 0..<Self.bucketCount {
            seen &+= counts[index]
            if seen >= rank {
                return min(max(Self.representative(ofBucket: index), minValue), maxValue)
            }
        }
        return maxValue
    }
}
