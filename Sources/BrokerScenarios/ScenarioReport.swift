import Foundation

/// `BrokerScenarios report DIR`: reads the JSON files a scenarios run wrote and prints one table of
/// each figure beside its target from the load-testing issue.
///
/// Files read (any may be missing): `idle.json`, `import.json` and `import-Kx.json` (the seeding),
/// `query.json` (N samples), `query-Kx.json` (K × N), `query-pageP.json` (N in pages of P), every
/// `ingest-*.json` in name order, the latency rounds `latency-R.json` with `latency-echo-R.json`, and
/// the deaf-client runs `deaf-C.json` (C connections), fewest first.
struct ScenarioReport {
    /// The query target, ms end to end.
    static let queryTargetMs = 150.0
    /// The ingest target, samples/s.
    static let ingestTarget = 200_000.0
    /// The idle-connection target, bytes of broker memory each.
    static let idleTargetBytes = 20.0 * 1024
    /// Another client's p99 ping latency while deaf clients sit there, µs.
    static let deafPingTargetMicros = 100_000.0
    /// Extra peak growth the 10× query may show over the 1× one and still count as flat, bytes.
    static let flatSlackBytes = 2 * 1024 * 1024

    /// The directory holding the JSON files.
    let directory: URL

    /// One row of the table.
    struct Row {
        var scenario: String
        var figure: String
        var target: String
        var verdict: String
    }

    /// The table, as text.
    func render() throws -> String {
        var rows: [Row] = []
        let decoder = JSONDecoder()
        func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T? {
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return try decoder.decode(T.self, from: data)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? []
        let isScaled = { (name: String, prefix: String) in
            name.hasPrefix(prefix + "-") && name.hasSuffix("x.json") && Int(name.dropFirst(prefix.count + 1).dropLast(6)) != nil
        }
        let base = try load("query.json", as: QueryScenario.Result.self)
        let scaled = try names.first { isScaled($0, "query") }.flatMap { try load($0, as: QueryScenario.Result.self) }
        for name in ["import.json"] + names.filter({ isScaled($0, "import") }) {
            guard let imported = try load(name, as: QueryScenario.Result.self) else { continue }
            rows.append(Row(
                scenario: "admin import of \(grouped(imported.samples)) min (batches of \(grouped(QueryScenario.importChunk)))",
                figure: "\(grouped(Int(imported.importSamplesPerSecond))) samples/s (\(grouped(imported.imported)) new)",
                target: "— (setup)", verdict: ""))
        }
        let shapes = try names.filter { $0.hasPrefix("query-page") && $0.hasSuffix(".json") }
            .compactMap { try load($0, as: QueryScenario.Result.self) }
        for (candidate, isBase) in [(base, true), (scaled, false)] + shapes.map({ ($0, false) }) {
            guard let query = candidate else { continue }
            let n = query.samples
            for runs in [query.full, query.limited] {
                let isTarget = isBase && runs.access == "full"
                rows.append(Row(
                    scenario: "query \(grouped(n)) min, \(runs.access) (\(grouped(runs.returned)) returned)\(query.pageSize == 0 ? "" : ", pages of \(query.pageSize)")",
                    figure: "median \(fixed(runs.medianMs)) ms (best \(fixed(runs.bestMs)), cold \(fixed(runs.firstMs))), \(grouped(Int(runs.samplesPerSecond))) samples/s, broker CPU \(fixed(runs.brokerCPUMs)) ms, client CPU \(fixed(runs.clientCPUMs)) ms",
                    target: isTarget ? "≤ 150 ms" : "—",
                    verdict: isTarget ? verdict(runs.medianMs <= Self.queryTargetMs, runs.medianMs / Self.queryTargetMs, "×") : ""))
            }
        }
        if let base, let scaled {
            let pairs: [(String, (Int, Int), (Int, Int))] = [
                ("broker", (base.full.brokerRSSBefore, base.full.brokerRSSPeak), (scaled.full.brokerRSSBefore, scaled.full.brokerRSSPeak)),
                ("client", (base.full.clientRSSBefore, base.full.clientRSSPeak), (scaled.full.clientRSSBefore, scaled.full.clientRSSPeak)),
            ]
            for (who, small, large) in pairs {
                let (smallGrowth, largeGrowth) = (small.1 - small.0, large.1 - large.0)
                rows.append(Row(
                    scenario: "query memory, \(who) (full-access runs)",
                    figure: "peak RSS \(kib(small.1)) at \(grouped(base.samples)), \(kib(large.1)) at \(grouped(scaled.samples)); growth over the runs \(kib(smallGrowth)), \(kib(largeGrowth))",
                    target: "flat as the result grows",
                    verdict: largeGrowth <= smallGrowth + Self.flatSlackBytes ? "holds" : "MISSED"))
            }
        }
        let ingestFiles = names.filter { $0.hasPrefix("ingest-") && $0.hasSuffix(".json") }
        for name in ingestFiles {
            guard let ingest = try load(name, as: IngestScenario.Result.self) else { continue }
            rows.append(Row(
                scenario: "ingest \(ingest.label), \(ingest.connections) conn × \(ingest.depth), batches of \(ingest.batchSize), \(ingest.uuids ?? "random") uuids",
                figure: "\(grouped(Int(ingest.samplesPerSecond))) samples/s (\(fixed(ingest.batchesPerSecond)) commits/s, save p50 \(fixed(ingest.saveMedianMs)) ms, broker CPU \(fixed(ingest.brokerCPUMicrosPerSample, 2)) µs/sample)",
                target: "≥ 200,000 samples/s",
                verdict: verdict(ingest.samplesPerSecond >= Self.ingestTarget, Self.ingestTarget / max(ingest.samplesPerSecond, 1), "× short")))
        }
        // Rounds: latency-N.json with latency-echo-N.json (an older run wrote one unnumbered pair).
        var rounds: [(LatencyScenario.Result, EchoLatency?)] = []
        for (own, echo) in [("latency.json", "latency-echo.json")] + (1...99).map({ ("latency-\($0).json", "latency-echo-\($0).json") }) {
            guard let latency = try load(own, as: LatencyScenario.Result.self) else { continue }
            rounds.append((latency, try load(echo, as: EchoLatency.self)))
        }
        if let first = rounds.first?.0 {
            let echoes = rounds.compactMap { $0.1?.latencyMicros.p50 }
            for (index, operation) in first.operations.enumerated() {
                let figures = rounds.compactMap { $0.0.operations.indices.contains(index) ? $0.0.operations[index] : nil }
                let ratios = rounds.compactMap { round -> Double? in
                    guard let echo = round.1, round.0.operations.indices.contains(index) else { return nil }
                    return round.0.operations[index].p50Micros / max(echo.latencyMicros.p50, 0.001)
                }
                let p50s = figures.map(\.p50Micros)
                let ratio = ratios.isEmpty ? nil : median(ratios)
                let clientCPU = figures.compactMap(\.clientCPUMicrosPerCall)
                rows.append(Row(
                    scenario: "\(operation.operation) through HealthStore, 1 call in flight" + (rounds.count > 1 ? " (\(rounds.count) rounds)" : ""),
                    figure: "p50 \(fixed(median(p50s), 1)) µs\(p50s.count > 1 ? " (\(spread(p50s)))" : ""), p99 \(fixed(median(figures.map(\.p99Micros)), 1)) µs; "
                        + "C libuv echo 1 × 1 p50 \(echoes.isEmpty ? "not run" : "\(fixed(median(echoes), 1)) µs" + (echoes.count > 1 ? " (\(spread(echoes)))" : "")); "
                        + "ratio \(ratio.map { fixed($0, 2) } ?? "—")\(ratios.count > 1 ? " (\(spread(ratios, digits: 2)))" : ""); "
                        + "broker CPU \(fixed(median(figures.map(\.brokerCPUMicrosPerCall)), 2)) µs/call"
                        + (clientCPU.isEmpty ? "" : ", client CPU \(fixed(median(clientCPU), 2)) µs/call"),
                    target: "p50 ≤ 1.5 × echo",
                    verdict: ratio.map { verdict($0 <= 1.5, $0, "× echo") } ?? ""))
            }
        }
        if let idle = try load("idle.json", as: IdleScenario.Result.self) {
            rows.append(Row(
                scenario: "idle \(grouped(idle.opened)) connections (Hello each; \(grouped(idle.pingsAnswered)) answered a ping)",
                figure: "\(grouped(Int(idle.bytesPerConnection))) B each (\(grouped(Int(idle.bytesPerConnectionAfterPing))) B after a ping each); broker RSS \(kib(idle.brokerRSSBefore)) → \(kib(idle.brokerRSSOpen))",
                target: "≤ 20 KiB each",
                verdict: verdict(idle.bytesPerConnection <= Self.idleTargetBytes && idle.pingsAnswered == idle.connections && idle.opened == idle.connections,
                                 idle.bytesPerConnection / Self.idleTargetBytes, "×")))
        }
        let deafRuns = try names.filter { $0.hasPrefix("deaf-") && $0.hasSuffix(".json") }
            .compactMap { try load($0, as: DeafScenario.Result.self) }.sorted { $0.clients < $1.clients }
        for deaf in deafRuns {
            let bound = Double(deaf.bound.bytes)
            rows.append(Row(
                scenario: "\(grouped(deaf.clients)) client\(deaf.clients == 1 ? "" : "s") that never read (\(grouped(deaf.helloAccepted)) said Hello; each poured pipelined queries, a huge PingStream and big delayed pings, median \(kib(deaf.pour.bytesMedian))): broker memory",
                figure: "\(kib(Int(deaf.growthPerClient))) peak growth each; broker RSS \(kib(deaf.brokerRSSBefore)) → peak \(kib(deaf.brokerRSSPeak)) (\(kib(deaf.brokerRSSClosed)) once closed)",
                target: "≤ bound \(kib(deaf.bound.bytes)) each (H \(kib(deaf.bound.highWater)), F \(kib(deaf.bound.maxFrame)))",
                verdict: verdict(deaf.growthPerClient <= bound && deaf.helloAccepted == deaf.clients, deaf.growthPerClient / bound, "× bound")))
            rows.append(Row(
                scenario: "another client's ping, 1 in flight, beside \(grouped(deaf.clients)) that never read",
                figure: "p50 \(fixed(deaf.during.p50Micros)) µs, p99 \(fixed(deaf.during.p99Micros)) µs, max \(fixed(deaf.during.maxMicros)) µs over \(grouped(deaf.during.pings)) (alone: p99 \(fixed(deaf.baseline.p99Micros)) µs)",
                target: "p99 < 100 ms",
                verdict: verdict(deaf.during.p99Micros < Self.deafPingTargetMicros, deaf.during.p99Micros / Self.deafPingTargetMicros, "×")))
        }
        return table(rows)
    }

    private func verdict(_ holds: Bool, _ ratio: Double, _ unit: String) -> String {
        holds ? "holds" : "MISSED (\(fixed(ratio, 1))\(unit))"
    }

    /// `value` with thousands separated by commas.
    private func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    private func median(_ values: [Double]) -> Double {
        QueryScenario.median(values)
    }

    /// "lowest–highest" of `values`.
    private func spread(_ values: [Double], digits: Int = 1) -> String {
        guard let low = values.min(), let high = values.max() else { return "—" }
        return "\(fixed(low, digits))–\(fixed(high, digits))"
    }

    private func kib(_ bytes: Int) -> String {
        bytes.magnitude >= 10 * 1024 * 1024 ? "\(fixed(Double(bytes) / 1_048_576, 1)) MiB" : "\(bytes / 1024) KiB"
    }

    private func fixed(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    private func table(_ rows: [Row]) -> String {
        let header = Row(scenario: "scenario", figure: "figure", target: "target", verdict: "verdict")
        let all = [header] + rows
        let columns: [[String]] = all.map { [$0.scenario, $0.figure, $0.target, $0.verdict] }
        var widths: [Int] = [0, 0, 0, 0]
        for cells in columns {
            for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ row: Row) -> String {
            [row.scenario, row.figure, row.target, row.verdict].enumerated()
                .map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// The part of the C echo client's `--json` the latency row needs.
private struct EchoLatency: Decodable {
    /// Latency percentiles in µs.
    struct Percentiles: Decodable {
        /// The median.
        let p50: Double
    }

    /// `latency_us`.
    let latencyMicros: Percentiles

    private enum CodingKeys: String, CodingKey {
        case latencyMicros = "latency_us"
    }
}
