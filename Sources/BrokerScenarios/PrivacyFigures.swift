/// The figures of one call kind in one round: the two arms interleaved (A ÷ B, or known ÷ unknown
/// for Hello), and the first arm against itself, interleaved the same way, as the noise band.
struct PrivacyFigures: Codable, Sendable {
    /// "privacy-round" (a JSON line's kind).
    var kind = "privacy-round"
    /// The call kind (`PrivacyCall.rawValue`).
    var call: String
    /// 1, 2, …
    var round: Int
    /// "A÷B" or "known÷unknown".
    var comparison: String
    /// Timed calls per arm.
    var calls: Int
    /// The first arm's median, µs.
    var medianAMicros: Double
    /// The second arm's median, µs.
    var medianBMicros: Double
    /// medianA ÷ medianB.
    var ratio: Double
    /// The rank-sum test of the first arm against the second.
    var test: RankSum
    /// The first arm's median in the A/A phase (first connection), µs.
    var medianAAFirstMicros: Double
    /// … and on the second connection, µs.
    var medianAASecondMicros: Double
    /// Their ratio: how far apart two identical arms land on this machine now.
    var ratioAA: Double
    /// The rank-sum test of the A/A phase.
    var testAA: RankSum
    /// Broker CPU per call of each arm in the A÷B phase, µs (scheduler time of each daemon over the
    /// phase ÷ calls; nil for Hello, whose arms share one daemon).
    var cpuPerCallAMicros: Double?
    var cpuPerCallBMicros: Double?
    /// Their ratio: the work each broker did per call, without the scheduling noise of wall time.
    var cpuRatio: Double?
    /// The same ratio in the A/A′ phase (nil without `--aa-copy`: one daemon serves both arms).
    var cpuRatioAA: Double?
    /// True when the A/A phase was A against a second daemon filled the same way (A/A′), which
    /// also shows how far two broker processes drift apart, as A and B are two processes.
    var aaAcrossDaemons: Bool
}

/// The verdict of one call kind over all rounds.
struct PrivacyVerdict: Codable, Sendable {
    /// "privacy-verdict" (a JSON line's kind).
    var kind = "privacy-verdict"
    /// The call kind.
    var call: String
    /// "A÷B" or "known÷unknown".
    var comparison: String
    /// Each round's ratio.
    var ratios: [Double]
    /// Each round's p-value.
    var pValues: [Double]
    /// Each round's A/A ratio.
    var ratiosAA: [Double]
    /// Each round's broker-CPU-per-call ratio and its A/A′ ratio, where measured.
    var cpuRatios: [Double?]
    var cpuRatiosAA: [Double?]
    /// Whether the two arms' answers were the same (status, samples, buckets, counts).
    var repliesSame: Bool
    /// "PASS" or "FAIL".
    var verdict: String
    /// Why, in a few words.
    var reason: String

    /// Judges a call from its rounds against the noise band: FAIL when a round's ratio (either way)
    /// is outside that round's band — `maxRatio`, or wider when the A/A comparison itself landed
    /// further apart (two identical arms, or with `--aa-copy` two identical daemons) — when every
    /// round leans the same way with p below `alpha` by more than its A/A comparison does (a small
    /// but steady difference is still a signal), or when the answers differ; otherwise PASS.
    init(call: PrivacyCall, rounds: [PrivacyFigures], repliesSame: Bool, maxRatio: Double, alpha: Double) {
        self.call = call.rawValue
        comparison = rounds.first?.comparison ?? ""
        ratios = rounds.map(\.ratio)
        pValues = rounds.map(\.test.p)
        ratiosAA = rounds.map(\.ratioAA)
        cpuRatios = rounds.map(\.cpuRatio)
        cpuRatiosAA = rounds.map(\.cpuRatioAA)
        self.repliesSame = repliesSame
        /// How far from 1 a ratio lies, either way (1.25 for 0.8 and for 1.25).
        func spread(_ ratio: Double) -> Double { ratio >= 1 ? ratio : 1 / ratio }
        let bands = rounds.map { max(maxRatio, spread($0.ratioAA)) }
        let outside = zip(ratios, bands).filter { spread($0) > $1 }.count
        let slower = rounds.allSatisfy { $0.test.z > 0 }
        let faster = rounds.allSatisfy { $0.test.z < 0 }
        let significant = rounds.allSatisfy { $0.test.p < alpha }
        let beyondNoise = rounds.allSatisfy { spread($0.ratio) > spread($0.ratioAA) }
        var reasons: [String] = []
        if !repliesSame { reasons.append("answers differ") }
        if outside > 0 { reasons.append("ratio outside the band (\(ResultLine.fixed(maxRatio, 2)) or the A/A spread) in \(outside)/\(rounds.count) round\(rounds.count == 1 ? "" : "s")") }
        if (slower || faster) && significant && beyondNoise && !rounds.isEmpty {
            // The rank-sum's direction, which can disagree with the medians' when the shapes differ.
            let arms = call.armNames
            reasons.append("\(arms.0) ranks \(slower ? "above" : "below") \(arms.1) in every round, p < \(alpha), beyond the A/A spread")
        }
        verdict = reasons.isEmpty ? "PASS" : "FAIL"
        reason = reasons.isEmpty ? "inside the noise band (\(ResultLine.fixed(maxRatio, 2)) or the A/A spread), no steady direction beyond it" : reasons.joined(separator: "; ")
    }
}
