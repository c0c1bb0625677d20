import Foundation
import HealthBrokerClient

/// The big clamped query: N minute-level step samples imported, then streamed to an app with
/// `HealthStore.samples(of:)`, timed end to end, with the broker's and this process's memory watched.
struct QueryScenario {
    /// Samples per import call.
    static let importChunk = 10_000
    /// The seed of the imported samples (fixed: the same uuids every run).
    static let seed: UInt64 = 0x4865_616C_7468_4272

    /// The broker's app socket.
    let socketPath: String
    /// The broker's admin socket.
    let adminSocketPath: String
    /// The daemon.
    let brokerPID: Int32
    /// Minute samples in the range.
    let samples: Int
    /// Timed runs per app (after one warm-up).
    let runs: Int
    /// Samples per page (0: the broker's default).
    let pageSize: Int
    /// Days at the end of the range the limited app may read.
    let limitedDays: Int
    /// Whether to import first.
    let importFirst: Bool
    /// Whether to stop after the import (a separate run then measures against a restarted daemon,
    /// so the broker's memory baseline holds nothing the import left behind).
    let importOnly: Bool
    /// Progress notes.
    let log: @Sendable (String) -> Void

    /// The figures of one app's query runs.
    struct AppRuns: Codable, Sendable {
        /// "full" or "limited".
        var access: String
        /// Samples each run returned.
        var returned: Int
        /// The warm-up (first, cold) run's time, ms.
        var firstMs: Double
        /// Each timed run, ms.
        var runsMs: [Double]
        /// The median timed run, ms.
        var medianMs: Double
        /// The fastest timed run, ms.
        var bestMs: Double
        /// Samples per second at the median.
        var samplesPerSecond: Double
        /// Broker CPU time per run (median), ms.
        var brokerCPUMs: Double
        /// This process's CPU time per run (median), ms: decoding, the async sequence, the loop.
        var clientCPUMs: Double
        /// The broker's RSS before the first (cold) run, bytes.
        var brokerRSSBefore: Int
        /// The broker's peak RSS over all runs, the cold one included (max of polled VmRSS and VmHWM), bytes.
        var brokerRSSPeak: Int
        /// This process's RSS before the first run, bytes.
        var clientRSSBefore: Int
        /// This process's peak RSS over all runs, bytes.
        var clientRSSPeak: Int
        /// How many times memory was polled.
        var memoryPolls: Int
    }

    /// The whole result.
    struct Result: Codable, Sendable {
        /// "query".
        var scenario = "query"
        /// Samples in the range (and imported).
        var samples: Int
        /// Range start and end, µs since the epoch.
        var rangeStartMicros: Int64
        /// The range end.
        var rangeEndMicros: Int64
        /// Samples per page asked for (0: the broker's default).
        var pageSize: Int
        /// Import throughput while seeding (samples/s), or 0 when skipped.
        var importSamplesPerSecond: Double
        /// Samples the import stored new.
        var imported: Int
        /// The full-access app's runs.
        var full: AppRuns
        /// The limited app's runs.
        var limited: AppRuns
        /// Whether VmHWM could be reset (otherwise peaks are polled only).
        var peakResetWorked: Bool
    }

    /// Imports, prepares the apps and measures.
    func run() async throws -> Result {
        let end = (Int64(Date().timeIntervalSince1970) * 1_000_000 / MinuteSteps.day) * MinuteSteps.day
        let start = end - Int64(samples) * MinuteSteps.minute
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }

        var importRate = 0.0
        var imported = 0
        if importFirst || importOnly {
            (importRate, imported) = try await importRange(from: start, admin: admin)
        }
        if importOnly {
            let none = AppRuns(
                access: "none", returned: 0, firstMs: 0, runsMs: [], medianMs: 0, bestMs: 0, samplesPerSecond: 0, brokerCPUMs: 0,
                clientCPUMs: 0, brokerRSSBefore: 0, brokerRSSPeak: 0, clientRSSBefore: 0, clientRSSPeak: 0, memoryPolls: 0)
            return Result(
                samples: samples, rangeStartMicros: start, rangeEndMicros: end, pageSize: pageSize,
                importSamplesPerSecond: importRate, imported: imported, full: none, limited: none, peakResetWorked: false)
        }
        let apps = ScenarioApps(socketPath: socketPath, admin: admin)
        let limitedFrom = max(start, end - Int64(limitedDays) * MinuteSteps.day)
        let fullToken = try await apps.prepare("scenarios.full", grant: .readFull)
        let limitedToken = try await apps.prepare("scenarios.limited", grant: .readLimited(fromMicros: limitedFrom))
        log("query: apps ready (full; limited from \(ISO8601DateFormatter().string(from: Date(microseconds: limitedFrom))))")

        let predicate = HealthStore.predicateForSamples(
            withStart: Date(microseconds: start), end: Date(microseconds: end), options: .strictStartDate)
        let peakReset = ProcessMemory.resetPeak(pid: brokerPID)
        let full = try await measure("full", appID: "scenarios.full", token: fullToken, predicate: predicate)
        let limited = try await measure("limited", appID: "scenarios.limited", token: limitedToken, predicate: predicate)
        if full.returned != samples {
            log("query: note: the full-access app got \(full.returned) samples, not \(samples): the store holds other step samples in the range")
        }
        return Result(
            samples: samples, rangeStartMicros: start, rangeEndMicros: end, pageSize: pageSize,
            importSamplesPerSecond: importRate, imported: imported, full: full, limited: limited, peakResetWorked: peakReset)
    }

    /// Imports the range in chunks as the app "scenarios.watch"; returns (samples/s, stored new).
    private func importRange(from start: Int64, admin: BrokerAdmin) async throws -> (Double, Int) {
        let generator = MinuteSteps(seed: Self.seed)
        let began = ContinuousClock.now
        var saved = 0
        var unchanged = 0
        var offset = 0
        while offset < samples {
            let count = min(Self.importChunk, samples - offset)
            let batch = generator.samples(from: start + Int64(offset) * MinuteSteps.minute, count: count)
            let result = try await admin.importSamples(batch, as: "scenarios.watch")
            saved += result.saved
            unchanged += result.unchanged
            offset += count
        }
        let seconds = (ContinuousClock.now - began).seconds
        log("query: imported \(samples) samples (\(saved) new, \(unchanged) already there) in \(String(format: "%.1f", seconds)) s")
        return (Double(samples) / seconds, saved)
    }

    /// One warm-up and `runs` timed runs of the range query as `appID`.
    private func measure(_ access: String, appID: String, token: String, predicate: SamplePredicate) async throws -> AppRuns {
        let store = try await HealthStore.connect(socketPath: socketPath, appID: appID, appToken: token)
        defer { store.close() }
        // Memory is watched from before the first (cold) run to the end of the last.
        let selfPID = getpid()
        ProcessMemory.resetPeak(pid: brokerPID)
        ProcessMemory.resetPeak(pid: selfPID)
        let brokerBefore = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let clientBefore = ProcessMemory.read(pid: selfPID)?.rss ?? 0
        let sampler = MemorySampler(pids: [brokerPID, selfPID])
        let (first, returned, _) = try await timedQuery(store, predicate: predicate)
        var times: [Double] = []
        var cpu: [Double] = []
        var clientCPU: [Double] = []
        for _ in 0..<runs {
            let cpuBefore = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
            let clientBefore = ProcessMemory.cpuMicros(pid: selfPID) ?? 0
            let (ms, count, _) = try await timedQuery(store, predicate: predicate)
            let cpuAfter = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
            let clientAfter = ProcessMemory.cpuMicros(pid: selfPID) ?? 0
            guard count == returned else { throw ScenarioFailure("\(access) query returned \(count) samples, earlier \(returned)") }
            times.append(ms)
            cpu.append(Double(cpuAfter - cpuBefore) / 1_000)
            clientCPU.append(Double(clientAfter - clientBefore) / 1_000)
        }
        let (peaks, polls) = sampler.stop()
        let brokerPeak = max(peaks[brokerPID] ?? 0, ProcessMemory.read(pid: brokerPID)?.hwm ?? 0)
        let clientPeak = max(peaks[selfPID] ?? 0, ProcessMemory.read(pid: selfPID)?.hwm ?? 0)
        let median = Self.median(times)
        log("query: \(access): \(returned) samples, first \(Self.ms(first)), median \(Self.ms(median)), best \(Self.ms(times.min() ?? 0))")
        return AppRuns(
            access: access, returned: returned, firstMs: first, runsMs: times, medianMs: median, bestMs: times.min() ?? 0,
            samplesPerSecond: median > 0 ? Double(returned) / (median / 1_000) : 0, brokerCPUMs: Self.median(cpu), clientCPUMs: Self.median(clientCPU),
            brokerRSSBefore: brokerBefore, brokerRSSPeak: brokerPeak, clientRSSBefore: clientBefore, clientRSSPeak: clientPeak,
            memoryPolls: polls)
    }

    /// Streams the query once; returns (ms end to end, samples, sum of the values).
    private func timedQuery(_ store: HealthStore, predicate: SamplePredicate) async throws -> (Double, Int, Double) {
        let began = ContinuousClock.now
        var count = 0
        var total = 0.0
        for try await sample in store.samples(of: .stepCount, predicate: predicate, pageSize: pageSize) {
            count += 1
            if case .quantity(let quantity) = sample.value { total += quantity.value }
        }
        return ((ContinuousClock.now - began).seconds * 1_000, count, total)
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `value` ms with one decimal.
    static func ms(_ value: Double) -> String {
        String(format: "%.1f ms", value)
    }
}

extension Date {
    /// The date `microseconds` µs after the epoch.
    init(microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
