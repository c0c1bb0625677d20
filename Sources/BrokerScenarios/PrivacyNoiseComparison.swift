import Foundation

/// All rounds of all A÷B calls at once: does A÷B lie further from 1 than the A/A comparison does?
///
/// One round of one call can land outside its band by chance on a shared machine; a leak makes A÷B
/// deviate more than A/A in round after round. Per (call, round) pair the two deviations (|log
/// ratio|) are compared, and a one-sided sign test says how likely at least that many A÷B "wins"
/// are when neither side deviates more (p = P[X ≥ wins], X ~ Binomial(n, ½)).
struct PrivacyNoiseComparison: Codable, Sendable {
    /// Pairs compared.
    var pairs: Int
    /// Pairs where A÷B lies further from 1 than A/A.
    var wins: Int
    /// The sign test's one-sided p-value.
    var p: Double
    /// Medians of the deviation, as a ratio ≥ 1 (1.04: 4% apart either way).
    var medianSpreadAB: Double
    var medianSpreadAA: Double

    /// The comparison of `ab` against `aa` ratios, pair by pair; nil when there are none.
    init?(ab: [Double], aa: [Double]) {
        let pairs = zip(ab, aa).filter { $0 > 0 && $1 > 0 }
        guard !pairs.isEmpty else { return nil }
        let deviations = pairs.map { (abs(log($0)), abs(log($1))) }
        self.pairs = deviations.count
        wins = deviations.filter { $0.0 > $0.1 }.count
        p = Self.signTestP(wins: wins, of: deviations.count)
        medianSpreadAB = exp(Self.median(deviations.map(\.0)))
        medianSpreadAA = exp(Self.median(deviations.map(\.1)))
    }

    /// P[X ≥ wins] for X ~ Binomial(n, ½), summed in log space so large n does not overflow.
    static func signTestP(wins: Int, of n: Int) -> Double {
        guard wins > 0 else { return 1 }
        func logChoose(_ n: Int, _ k: Int) -> Double { lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1)) }
        return min(1, (wins...n).reduce(0.0) { $0 + exp(logChoose(n, $1) - Double(n) * log(2.0)) })
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// One line for the report, e.g. "wall time: A÷B further from 1 than A/A in 18 of 40 rounds (sign test p 0.79); median spread A÷B 1.04, A/A 1.05".
    func line(_ label: String) -> String {
        "\(label): A÷B further from 1 than A/A in \(wins) of \(pairs) rounds (sign test p \(ResultLine.fixed(p, 3)));"
            + " median spread A÷B \(ResultLine.fixed(medianSpreadAB, 3)), A/A \(ResultLine.fixed(medianSpreadAA, 3))"
    }
}
