#if canImport(Glibc)
import Glibc
#endif

/// A latency-percentile plot drawn directly as SVG text, in the manner of HdrHistogram plots: x is
/// the percentile on a log scale of 1 / (1 - p), from 0 % to 99.999 %; y is latency.
struct LatencyPlot {
    /// One line of the plot.
    struct Series {
        /// The legend text.
        var name: String
        /// Its percentile table (latencies in µs).
        var points: [PercentilePoint]
    }

    /// The title above the plot.
    var title: String
    /// The lines to draw.
    var series: [Series]

    /// Decades of 1 / (1 - p) on the x axis: 5 reaches 99.999 %.
    static let decades = 5.0
    /// The picture's width.
    static let width = 960.0
    /// The picture's height.
    static let height = 540.0
    /// Room left of the plot area (y labels).
    static let left = 90.0
    /// Room right of the plot area (legend).
    static let right = 190.0
    /// Room above the plot area (title).
    static let top = 50.0
    /// Room below the plot area (x labels).
    static let bottom = 60.0
    /// Line colours, in series order.
    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]

    /// The plot of a run: all calls, and each operation when there are several.
    init(report: LoadReport) {
        let config = report.configuration
        let shape = config.mode == "open" ? "open loop \(ReportText.grouped(config.rate ?? 0))/s" : "\(config.connections)×\(config.depth)"
        title = "healthload \(shape), \(config.mix): \(ReportText.grouped(report.callsPerSecond)) calls/s"
        var series = [Series(name: "all calls", points: report.percentiles)]
        if report.operations.count > 1 {
            series += report.operations.map { Series(name: $0.operation, points: $0.percentiles) }
        }
        self.series = series
    }

    /// A plot of these series.
    init(title: String, series: [Series]) {
        self.title = title
        self.series = series
    }

    /// The x position of percentile `p` (0…100), clamped to the axis.
    static func x(percentile: Double) -> Double {
        let remaining = max(1 - percentile / 100, pow(10, -decades))
        let decade = min(max(log10(1 / remaining), 0), decades)
        return left + (width - left - right) * decade / decades
    }

    /// The whole SVG document.
    func svg() -> String {
        let plotted = series.map { line in line.points.filter { $0.percentile <= 100 - pow(10, -Self.decades) * 100 + 1e-9 } }
        let highest = plotted.flatMap { $0 }.map(\.latencyMicros).max() ?? 0
        let useMillis = highest >= 10_000
        let unit = useMillis ? "ms" : "µs"
        let scale = useMillis ? 1_000.0 : 1.0
        let step = Self.niceStep(highest / scale / 5)
        let top = max(step, (highest / scale / step).rounded(.up) * step)
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        func y(_ micros: Double) -> Double { Self.top + plotHeight * (1 - min(micros / scale / top, 1)) }

        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" font-family="sans-serif" font-size="12">
            <rect x="0" y="0" width="\(Int(Self.width))" height="\(Int(Self.height))" fill="white"/>
            <text x="\(Self.format(Self.width / 2))" y="24" text-anchor="middle" font-size="15">\(Self.escape(title))</text>

            """
        // Grid and axes.
        for decade in 0...Int(Self.decades) {
            let x = Self.left + plotWidth * Double(decade) / Self.decades
            out += "<line x1=\"\(Self.format(x))\" y1=\"\(Self.format(Self.top))\" x2=\"\(Self.format(x))\" y2=\"\(Self.format(Self.top + plotHeight))\" stroke=\"#dddddd\"/>\n"
            out += "<text x=\"\(Self.format(x))\" y=\"\(Self.format(Self.top + plotHeight + 18))\" text-anchor=\"middle\">\(Self.percentLabel(decade: decade))</text>\n"
        }
        var tick = 0.0
        while tick <= top + step / 2 {
            let yy = Self.top + plotHeight * (1 - tick / top)
            out += "<line x1=\"\(Self.format(Self.left))\" y1=\"\(Self.format(yy))\" x2=\"\(Self.format(Self.left + plotWidth))\" y2=\"\(Self.format(yy))\" stroke=\"#dddddd\"/>\n"
            out += "<text x=\"\(Self.format(Self.left - 8))\" y=\"\(Self.format(yy + 4))\" text-anchor=\"end\">\(Self.format(tick))</text>\n"
            tick += step
        }
        out += "<rect x=\"\(Self.format(Self.left))\" y=\"\(Self.format(Self.top))\" width=\"\(Self.format(plotWidth))\" height=\"\(Self.format(plotHeight))\" fill=\"none\" stroke=\"#333333\"/>\n"
        out += "<text x=\"\(Self.format(Self.left + plotWidth / 2))\" y=\"\(Self.format(Self.height - 16))\" text-anchor=\"middle\">percentile</text>\n"
        out += "<text x=\"20\" y=\"\(Self.format(Self.top + plotHeight / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 20 \(Self.format(Self.top + plotHeight / 2)))\">latency (\(unit))</text>\n"

        // Lines and legend.
        for (index, line) in series.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            let points = plotted[index].map { "\(Self.format(Self.x(percentile: $0.percentile))),\(Self.format(y($0.latencyMicros)))" }
            if !points.isEmpty {
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
            }
            let legendY = Self.top + 10 + Double(index) * 20
            let legendX = Self.left + plotWidth + 16
            out += "<line x1=\"\(Self.format(legendX))\" y1=\"\(Self.format(legendY))\" x2=\"\(Self.format(legendX + 20))\" y2=\"\(Self.format(legendY))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            var label = line.name
            if let max = line.points.last?.latencyMicros { label += " (max \(ReportText.latencyText(max)))" }
            out += "<text x=\"\(Self.format(legendX + 26))\" y=\"\(Self.format(legendY + 4))\">\(Self.escape(label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// 0%, 90%, 99%, 99.9%, … for decade 0, 1, 2, 3, …
    static func percentLabel(decade: Int) -> String {
        switch decade {
        case ...0: "0%"
        case 1: "90%"
        case 2: "99%"
        default: "99." + String(repeating: "9", count: decade - 2) + "%"
        }
    }

    /// A round axis step near `raw`: 1, 2 or 5 times a power of ten.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// A coordinate with at most two decimals.
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// `text` with XML's special characters escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
