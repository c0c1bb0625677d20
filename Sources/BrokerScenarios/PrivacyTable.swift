import Foundation

/// The privacy scenario's printed output: one `key=value` line per call and round (as the other
/// scenarios' result lines), and the final table of verdicts.
enum PrivacyTable {
    /// One round of one call.
    static func line(_ figures: PrivacyFigures) -> String {
        "privacy call=\(figures.call) round=\(figures.round) compare=\(figures.comparison) calls=\(figures.calls)"
            + " a_median_us=\(ResultLine.fixed(figures.medianAMicros, 1)) b_median_us=\(ResultLine.fixed(figures.medianBMicros, 1))"
            + " ratio=\(ResultLine.fixed(figures.ratio, 3)) p=\(pValue(figures.test.p))"
            + " aa_ratio=\(ResultLine.fixed(figures.ratioAA, 3)) aa_p=\(pValue(figures.testAA.p))"
            + " cpu_a_us=\(optional(figures.cpuPerCallAMicros, 2)) cpu_b_us=\(optional(figures.cpuPerCallBMicros, 2))"
            + " cpu_ratio=\(optional(figures.cpuRatio, 3)) cpu_aa_ratio=\(optional(figures.cpuRatioAA, 3))"
    }

    /// The verdicts, one row per call, with every round's ratio, p and A/A ratio.
    static func render(_ result: PrivacyScenario.Result) -> String {
        let header = ["call", "compare", "replies", "ratio per round", "p per round", "A/A ratio per round", "CPU A÷B (A/A′)", "verdict"]
        var rows = [header]
        for verdict in result.verdicts {
            rows.append([
                verdict.call, verdict.comparison, verdict.repliesSame ? "same" : "DIFFER",
                verdict.ratios.map { ResultLine.fixed($0, 2) }.joined(separator: " "),
                verdict.pValues.map(pValue).joined(separator: " "),
                verdict.ratiosAA.map { ResultLine.fixed($0, 2) }.joined(separator: " "),
                zip(verdict.cpuRatios, verdict.cpuRatiosAA).map { "\(optional($0, 2))(\(optional($1, 2)))" }.joined(separator: " "),
                "\(verdict.verdict) (\(verdict.reason))",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        let passed = result.verdicts.filter { $0.verdict == "PASS" }.count
        let band = result.aaAcrossDaemons ? "A/A: A against a second daemon filled as A (Hello: within A)" : "A/A: A against itself (a second connection)"
        return (["privacy: \(result.otherSamples) other-app samples in A, \(result.calls) calls per arm per round, \(result.rounds) round(s); \(band)"]
            + [lines[0], String(repeating: "-", count: lines[0].count)] + lines.dropFirst()
            + ["privacy: \(passed)/\(result.verdicts.count) calls PASS"]
            + noiseLines(result)).joined(separator: "\n")
    }

    /// The all-rounds comparison of A÷B against the A/A band, in wall time and in broker CPU.
    static func noiseLines(_ result: PrivacyScenario.Result) -> [String] {
        let rounds = result.figures.filter { $0.comparison == "A÷B" }
        var lines: [String] = []
        if let wall = PrivacyNoiseComparison(ab: rounds.map(\.ratio), aa: rounds.map(\.ratioAA)) {
            lines.append("privacy: all calls, wall time: " + wall.line("").dropFirst(2))
        }
        let cpu = rounds.filter { $0.cpuRatio != nil && $0.cpuRatioAA != nil }
        if let work = PrivacyNoiseComparison(ab: cpu.compactMap(\.cpuRatio), aa: cpu.compactMap(\.cpuRatioAA)) {
            lines.append("privacy: all calls, broker CPU: " + work.line("").dropFirst(2))
        }
        return lines
    }

    /// `value` with `digits` decimals, or "-" when not measured.
    static func optional(_ value: Double?, _ digits: Int) -> String {
        value.map { ResultLine.fixed($0, digits) } ?? "-"
    }

    /// A p-value in a short form ("<1e-300" when it underflows).
    static func pValue(_ p: Double) -> String {
        p == 0 ? "<1e-300" : p < 0.001 ? String(format: "%.0e", p) : ResultLine.fixed(p, 3)
    }
}
