import Foundation

/// The two-sided Mann–Whitney U (Wilcoxon rank-sum) test with the normal approximation: whether
/// two sets of call times come from the same distribution, without assuming any shape (latencies
/// have long right tails, so a t-test would be led by a few slow calls).
struct RankSum: Codable, Sendable {
    /// U of the first sample (the count of pairs in which the first sample's value is larger, ties
    /// counting one half).
    let u: Double
    /// The standardised U, continuity-corrected; positive when the first sample tends to be larger.
    let z: Double
    /// The two-sided p-value.
    let p: Double

    /// Tests `first` against `second`. Ties get the mean of the ranks they span, and the variance is
    /// corrected for them (call times measured in whole nanoseconds tie rarely, but they do).
    init(_ first: [Double], _ second: [Double]) {
        let n1 = Double(first.count)
        let n2 = Double(second.count)
        guard !first.isEmpty, !second.isEmpty else {
            (u, z, p) = (0, 0, 1)
            return
        }
        // (value, from the first sample) sorted by value.
        let pooled = (first.map { ($0, true) } + second.map { ($0, false) }).sorted { $0.0 < $1.0 }
        let n = Double(pooled.count)
        var firstRanks = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count && pooled[end + 1].0 == pooled[start].0 { end += 1 }
            // Ranks are 1-based: positions start…end share the mean rank.
            let rank = Double(start + end + 2) / 2
            for index in start...end where pooled[index].1 { firstRanks += rank }
            let t = Double(end - start + 1)
            tieTerm += t * t * t - t
            start = end + 1
        }
        let u = firstRanks - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        self.u = u
        guard variance > 0 else {
            (z, p) = (0, 1)
            return
        }
        let distance = max(abs(u - mean) - 0.5, 0)
        let z = (u >= mean ? distance : -distance) / variance.squareRoot()
        self.z = z
        // Two-sided: 2 (1 − Φ(|z|)) = erfc(|z| / √2).
        self.p = min(1, erfc(abs(z) / 2.0.squareRoot()))
    }
}
