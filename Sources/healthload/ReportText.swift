import Foundation

/// The human-readable forms of the results: the progress line and the summary.
enum ReportText {
    /// The phase name shown on a progress line at `now`.
    static func phase(at now: UInt64, window: MeasurementWindow) -> String {
        if now < window.measureStart { return "warm-up" }
        if now < window.measureEnd { return "measuring" }
        return "draining"
    }

    /// `[  3s] measuring   123,456 calls/s  p50 21.3µs  p99 80.1µs  errors 0`.
    static func progressLine(elapsed: Double, callsPerSecond: Double, tally: StatsTally, phase: String) -> String {
        let total = tally.total
        let empty = total.latency.isEmpty
        let p50 = empty ? "-" : latencyText(micros(total.latency.value(atPercentile: 50)))
        let p99 = empty ? "-" : latencyText(micros(total.latency.value(atPercentile: 99)))
        let elapsedText = String(format: "%4.0fs", elapsed)
        let phaseText = phase.padding(toLength: 9, withPad: " ", startingAt: 0)
        let rate = grouped(callsPerSecond).leftPadded(to: 11)
        return "[\(elapsedText)] \(phaseText) \(rate) calls/s  p50 \(p50)  p99 \(p99)  errors \(grouped(Double(tally.failedAnyPhase)))"
    }

    /// The end-of-run summary.
    static func summary(_ report: LoadReport) -> String {
        let config = report.configuration
        var lines: [String] = []
        let shape = config.mode == "open"
            ? "open loop at \(grouped(config.rate ?? 0)) calls/s, \(config.connections) connection(s), at most \(config.depth) in flight each"
            : "\(config.connections) connection(s) × \(config.depth) in flight"
        lines.append("healthload: \(shape), \(config.threads) thread(s), mix \(config.mix)")
        lines.append("  measured \(String(format: "%.2f", report.measuredSeconds)) s after \(String(format: "%.2f", config.warmupSeconds)) s warm-up\(report.stoppedEarly ? " (stopped early)" : "")")
        var calls = "  calls:      \(grouped(Double(report.completed))) completed (\(grouped(Double(report.succeeded))) OK, \(grouped(Double(report.failed))) failed) of \(grouped(Double(report.started))) started"
        if report.unsent > 0 { calls += ", \(grouped(Double(report.unsent))) due but never sent" }
        lines.append(calls)
        lines.append("  rate:       \(grouped(report.callsPerSecond)) calls/s")
        let latency = report.latency
        lines.append("  latency:    p50 \(latencyText(latency.p50Micros))  p90 \(latencyText(latency.p90Micros))  p99 \(latencyText(latency.p99Micros))  p99.9 \(latencyText(latency.p999Micros))  max \(latencyText(latency.maxMicros))  (mean \(latencyText(latency.meanMicros)), OK calls)")
        lines.append("  bytes:      \(byteRate(report.bytesPerSecond)) (requests \(byteCount(report.bytesSent)), replies \(byteCount(report.bytesReceived)))")
        var broker = "  broker:     "
        if let pid = report.broker.pid { broker += "pid \(pid) (\(report.broker.pidSource ?? "?"))" } else { broker += "pid unknown" }
        if let cpu = report.broker.cpuSeconds {
            broker += ", CPU \(String(format: "%.2f", cpu)) s"
            if let perCall = report.broker.cpuMicrosPerCall { broker += " = \(String(format: "%.2f", perCall)) µs/call" }
        } else {
            broker += ", CPU time not readable"
        }
        if let ratio = report.broker.framesPerWrite { broker += ", \(String(format: "%.2f", ratio)) replies per write" }
        lines.append(broker)
        if let cpu = report.client.cpuSeconds {
            var client = "  healthload: CPU \(String(format: "%.2f", cpu)) s"
            if let perCall = report.client.cpuMicrosPerCall { client += " = \(String(format: "%.2f", perCall)) µs/call" }
            lines.append(client)
        }
        if report.operations.count > 1 {
            lines.append("  per operation:")
            for operation in report.operations {
                let name = operation.operation.padding(toLength: 7, withPad: " ", startingAt: 0)
                lines.append("    \(name) \(grouped(Double(operation.completed)).leftPadded(to: 11)) calls \(grouped(operation.callsPerSecond).leftPadded(to: 11))/s  p50 \(latencyText(operation.latency.p50Micros))  p99 \(latencyText(operation.latency.p99Micros))  max \(latencyText(operation.latency.maxMicros))  errors \(grouped(Double(operation.failed)))")
            }
        }
        if report.errors.isEmpty {
            lines.append("  errors:     none")
        } else {
            lines.append("  errors:     " + report.errors.sorted { $0.key < $1.key }.map { "\($0.key) \(grouped(Double($0.value)))" }.joined(separator: ", "))
        }
        if report.strayReplies > 0 { lines.append("  stray replies (for no call in flight): \(report.strayReplies)") }
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds as microseconds.
    static func micros(_ nanos: UInt64) -> Double { Double(nanos) / 1_000 }

    /// A latency in µs, ms or s with three significant digits or so.
    static func latencyText(_ micros: Double) -> String {
        if micros < 1_000 { return String(format: micros < 10 ? "%.2fµs" : "%.1fµs", micros) }
        if micros < 1_000_000 { return String(format: "%.2fms", micros / 1_000) }
        return String(format: "%.2fs", micros / 1_000_000)
    }

    /// A number rounded to whole units with thousands separators: 1,234,567.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let whole = Int64(value.rounded())
        let digits = String(whole.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return whole < 0 ? "-" + result : result
    }

    /// Bytes a second in B/s, KB/s, MB/s or GB/s (powers of 1000).
    static func byteRate(_ bytesPerSecond: Double) -> String { byteCount(bytesPerSecond) + "/s" }

    /// A byte count in B, KB, MB or GB (powers of 1000).
    static func byteCount<Number: BinaryInteger>(_ bytes: Number) -> String { byteCount(Double(bytes)) }

    /// A byte count in B, KB, MB or GB (powers of 1000).
    static func byteCount(_ bytes: Double) -> String {
        if bytes < 1_000 { return String(format: "%.0f B", bytes) }
        if bytes < 1_000_000 { return String(format: "%.1f KB", bytes / 1_000) }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", bytes / 1_000_000) }
        return String(format: "%.2f GB", bytes / 1_000_000_000)
    }
}
