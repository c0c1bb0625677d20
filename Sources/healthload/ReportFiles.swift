import Foundation

/// Writes the report files: `--json` and `--svg`.
enum ReportFiles {
    /// The report as pretty-printed JSON with sorted keys.
    static func json(_ report: LoadReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(report)
        data.append(0x0a)
        return data
    }

    /// Writes the JSON report to `path`.
    static func writeJSON(_ report: LoadReport, to path: String) throws {
        try json(report).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Writes the latency-percentile plot to `path`.
    static func writeSVG(_ report: LoadReport, to path: String) throws {
        try Data(LatencyPlot(report: report).svg().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
