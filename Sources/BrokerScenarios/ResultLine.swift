import Foundation

/// The one-line summaries the scenarios print (`key=value` pairs, easy to grep) and their JSON.
enum ResultLine {
    /// The query scenario's line.
    static func query(_ result: QueryScenario.Result) -> String {
        func part(_ runs: QueryScenario.AppRuns) -> String {
            "\(runs.access): returned=\(runs.returned) first_ms=\(fixed(runs.firstMs)) median_ms=\(fixed(runs.medianMs))"
                + " best_ms=\(fixed(runs.bestMs)) samples_per_s=\(Int(runs.samplesPerSecond)) broker_cpu_ms=\(fixed(runs.brokerCPUMs)) client_cpu_ms=\(fixed(runs.clientCPUMs))"
                + " broker_rss_kib=\(runs.brokerRSSBefore / 1024)->\(runs.brokerRSSPeak / 1024)"
                + " client_rss_kib=\(runs.clientRSSBefore / 1024)->\(runs.clientRSSPeak / 1024)"
        }
        return "query samples=\(result.samples) page_size=\(result.pageSize) import_samples_per_s=\(Int(result.importSamplesPerSecond)) | "
            + part(result.full) + " | " + part(result.limited)
    }

    /// The line of a query run that only imported.
    static func importOnly(_ result: QueryScenario.Result) -> String {
        "import samples=\(result.samples) new=\(result.imported) samples_per_s=\(Int(result.importSamplesPerSecond))"
    }

    /// The ingest scenario's line.
    static func ingest(_ result: IngestScenario.Result) -> String {
        "ingest label=\(result.label.isEmpty ? "-" : result.label) batches=\(result.batches) batch_size=\(result.batchSize) uuids=\(result.uuids ?? "random")"
            + " connections=\(result.connections) depth=\(result.depth) saved=\(result.saved) seconds=\(fixed(result.seconds, 3))"
            + " samples_per_s=\(Int(result.samplesPerSecond)) commits_per_s=\(fixed(result.batchesPerSecond))"
            + " save_median_ms=\(fixed(result.saveMedianMs)) save_max_ms=\(fixed(result.saveMaxMs))"
            + " broker_cpu_us_per_sample=\(fixed(result.brokerCPUMicrosPerSample, 2))"
    }

    /// The latency scenario's line.
    static func latency(_ result: LatencyScenario.Result) -> String {
        "latency" + result.operations.map { figures in
            " | \(figures.operation): calls=\(figures.calls) p50_us=\(fixed(figures.p50Micros, 1)) p99_us=\(fixed(figures.p99Micros, 1))"
                + " calls_per_s=\(Int(figures.callsPerSecond)) broker_cpu_us_per_call=\(fixed(figures.brokerCPUMicrosPerCall, 2))"
                + (figures.clientCPUMicrosPerCall.map { " client_cpu_us_per_call=\(fixed($0, 2))" } ?? "")
        }.joined()
    }

    /// The idle scenario's line.
    static func idle(_ result: IdleScenario.Result) -> String {
        "idle connections=\(result.opened)/\(result.connections) broker_counted=\(result.brokerAppConnections)"
            + " open_s=\(fixed(result.openSeconds, 2)) broker_rss_kib=\(result.brokerRSSBefore / 1024)->\(result.brokerRSSOpen / 1024)"
            + " bytes_per_conn=\(Int(result.bytesPerConnection)) pings=\(result.pingsAnswered)/\(result.opened)"
            + " bytes_per_conn_after_ping=\(Int(result.bytesPerConnectionAfterPing)) broker_rss_closed_kib=\(result.brokerRSSClosed / 1024)"
            + " nofile_driver=\(result.driverFileLimit) nofile_broker=\(result.brokerFileLimit)"
    }

    /// The deaf-clients scenario's line.
    static func deaf(_ result: DeafScenario.Result) -> String {
        let growth = result.brokerRSSPeak - result.brokerRSSBefore
        return "deaf clients=\(result.clients) hello_ok=\(result.helloAccepted) broker_counted=\(result.brokerAppConnections)"
            + " poured_kib=\(result.pour.bytesMin / 1024)..\(result.pour.bytesMax / 1024) pour_s=\(fixed(result.pour.seconds, 2)) wrote_all=\(result.pour.wroteAll)"
            + " broker_rss_kib=\(result.brokerRSSBefore / 1024)->peak \(result.brokerRSSPeak / 1024) held=\(result.brokerRSSHeld / 1024) closed=\(result.brokerRSSClosed / 1024)"
            + " growth_kib=\(growth / 1024) growth_per_client_kib=\(fixed(result.growthPerClient / 1024))"
            + " bound_per_conn_kib=\(result.bound.bytes / 1024) (H=\(result.bound.highWater) F=\(result.bound.maxFrame) page=\(result.bound.pageBytes) from \(result.bound.source))"
            + " | other client ping: p50_us=\(fixed(result.during.p50Micros)) p99_us=\(fixed(result.during.p99Micros)) max_us=\(fixed(result.during.maxMicros))"
            + " pings=\(result.during.pings) broker_cpu_pct=\(fixed(result.during.brokerCPUPercent)) target_p99_us=100000 (alone: p50_us=\(fixed(result.baseline.p50Micros)) p99_us=\(fixed(result.baseline.p99Micros)) max_us=\(fixed(result.baseline.maxMicros)) broker_cpu_pct=\(fixed(result.baseline.brokerCPUPercent)))"
    }

    /// `value` as pretty-printed JSON with sorted keys.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}
