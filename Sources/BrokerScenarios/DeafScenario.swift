#if canImport(Glibc)
import BrokerSupport
import Glibc
#endif
import BrokerWire
import Foundation
import HealthBrokerClient

/// Clients that never read (issue 15, item 2): N app connections each say Hello and pour pipelined
/// calls (`DeafTraffic`) until the socket takes no more, and sit there. Meanwhile the broker's peak
/// RSS is watched and a well-behaved client's pings are timed; the growth per deaf client is set
/// beside the documented per-connection bound at the daemon's flags (`ConnectionBound`).
struct DeafScenario {
    /// Samples per import call.
    static let importChunk = 10_000
    /// Untimed pings first, so the bystander's connection and this process are warm.
    static let warmupPings = 200
    /// The longest the pour may take, s.
    static let maxPourSeconds = 60.0
    /// The longest each ping phase may take, s.
    static let maxPingSeconds = 60.0

    /// The broker's app socket.
    let socketPath: String
    /// The broker's admin socket.
    let adminSocketPath: String
    /// The daemon.
    let brokerPID: Int32
    /// Clients that never read.
    let clients: Int
    /// Minute step samples in the store, which each deaf query reads.
    let samples: Int
    /// The bystander's timed pings while the deaf clients sit there.
    let pings: Int
    /// Its timed pings before they connect (for comparison).
    let baselinePings: Int
    /// The bystander's pause after each ping, µs.
    let pingIntervalMicros: Int
    /// Wait before each RSS reading, ms.
    let settleMs: Int
    /// Whether to import the samples first.
    let importFirst: Bool
    /// What the deaf clients send.
    let traffic: DeafTraffic
    /// Progress notes.
    let log: @Sendable (String) -> Void

    /// The figures.
    struct Result: Codable, Sendable {
        /// "deaf".
        var scenario = "deaf"
        /// Deaf clients.
        var clients: Int
        /// Their Hello answered OK (read at the end).
        var helloAccepted: Int
        /// App connections the broker counted after the timed pings (the deaf ones, the bystander).
        var brokerAppConnections: Int
        /// The daemon's `--stall-timeout-ms` (after it, it cuts off a peer that reads nothing), ms.
        var stallTimeoutMs: Int
        /// What each deaf client sent: its big pings' payload and delay, its stream's item payload, bytes and µs.
        var pingPayloadBytes: Int
        /// The big pings' delay, µs.
        var pingDelayMicros: Int64
        /// The PingStream's item payload.
        var streamPayloadBytes: Int
        /// The queries' page size.
        var queryPageSize: Int
        /// Step samples in the store (each query's answer).
        var samples: Int
        /// How the pour went.
        var pour: DeafClients.Pour
        /// The documented bound per connection at the daemon's flags.
        var bound: ConnectionBound
        /// That bound, 2H + 3F + 64 KiB + two pages, bytes (in the JSON for other readers).
        var boundBytesPerConnection: Int
        /// Broker RSS before the deaf clients connected, bytes.
        var brokerRSSBefore: Int
        /// Its peak from their connecting to the end of the timed pings (max of polled VmRSS and VmHWM), bytes.
        var brokerRSSPeak: Int
        /// Its RSS at the end of the timed pings, bytes.
        var brokerRSSHeld: Int
        /// Its RSS a settle after the deaf clients closed, bytes.
        var brokerRSSClosed: Int
        /// (peak − before) / clients, bytes.
        var growthPerClient: Double
        /// Whether VmHWM could be reset (otherwise the peak is polled only).
        var peakResetWorked: Bool
        /// How many times RSS was polled.
        var memoryPolls: Int
        /// The bystander before the deaf clients connected.
        var baseline: BystanderPings.Figures
        /// The bystander while they sat there.
        var during: BystanderPings.Figures
        /// The bystander's ping after they closed was answered.
        var answeredAfterClose: Bool
    }

    /// Imports the samples as the app "scenarios.watch" (idempotent); returns (samples/s, stored new).
    func importSamples() async throws -> (Double, Int) {
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let end = (Int64(Date().timeIntervalSince1970) * 1_000_000 / MinuteSteps.day) * MinuteSteps.day
        let start = end - Int64(samples) * MinuteSteps.minute
        let generator = MinuteSteps(seed: QueryScenario.seed)
        let began = ContinuousClock.now
        var saved = 0
        var offset = 0
        while offset < samples {
            let count = min(Self.importChunk, samples - offset)
            saved += try await admin.importSamples(generator.samples(from: start + Int64(offset) * MinuteSteps.minute, count: count), as: "scenarios.watch").saved
            offset += count
        }
        let seconds = (ContinuousClock.now - began).seconds
        log("deaf: imported \(samples) step samples (\(saved) new) in \(String(format: "%.1f", seconds)) s")
        return (Double(samples) / max(seconds, 1e-9), saved)
    }

    /// Sets up the apps, connects the deaf clients, measures, closes them.
    func run() async throws -> Result {
        let limit = FileDescriptorLimit.raiseToHardLimit()
        guard limit >= UInt64(clients + 64) else {
            throw ScenarioFailure("the open-file limit is \(limit); \(clients) connections need more (raise the hard limit)")
        }
        if importFirst { _ = try await importSamples() }
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let apps = ScenarioApps(socketPath: socketPath, admin: admin)
        let deafToken = try await apps.prepare("scenarios.deaf", grant: .readFull)
        let bystanderToken = try await apps.prepare("scenarios.bystander", grant: .none)
        let store = try await HealthStore.connect(socketPath: socketPath, appID: "scenarios.bystander", appToken: bystanderToken)
        defer { store.close() }
        for _ in 0..<Self.warmupPings { _ = try await store.ping(payload: [1]) }
        let baseline = try await pingPhase(store, count: baselinePings)
        log("deaf: bystander alone: p50 \(micros(baseline.p50Micros)), p99 \(micros(baseline.p99Micros)), max \(micros(baseline.maxMicros))")

        let hello = HelloRequest(appID: "scenarios.deaf", appToken: deafToken, protocolVersion: BrokerVersion.protocolVersion)
        let streams = traffic.streams(hello: hello)
        let bound = ConnectionBound.of(pid: brokerPID)
        let stall = ConnectionBound.commandLine(pid: brokerPID).flatMap { ConnectionBound.value(of: "stall-timeout-ms", in: $0) } ?? 30_000
        settle()
        let before = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let peakReset = ProcessMemory.resetPeak(pid: brokerPID)
        let sampler = MemorySampler(pids: [brokerPID])
        let deaf: DeafClients
        do {
            deaf = try DeafClients(socketPath: socketPath, count: clients, streams: streams)
        } catch {
            _ = sampler.stop()
            throw error
        }
        defer { deaf.close() }
        let pour = deaf.pour(maxSeconds: Self.maxPourSeconds)
        log("deaf: \(clients) clients poured \(pour.bytesMin)–\(pour.bytesMax) bytes each in \(String(format: "%.2f", pour.seconds)) s"
            + " (\(pour.wroteAll) wrote everything, \(pour.failed) failed\(pour.timedOut ? ", timed out" : ""))")
        // The big pings' timers fire and their replies park: wait past the delay, then settle.
        usleep(UInt32(traffic.pingDelayMicros))
        settle()
        let during = try await pingPhase(store, count: pings)
        let held = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let counted = Int((try? await admin.brokerInfo())?.appConnections ?? 0)
        let (peaks, polls) = sampler.stop()
        let peak = max(peaks[brokerPID] ?? 0, ProcessMemory.read(pid: brokerPID)?.hwm ?? 0)
        log("deaf: bystander with \(clients) deaf clients: p50 \(micros(during.p50Micros)), p99 \(micros(during.p99Micros)), max \(micros(during.maxMicros)); broker RSS \(before >> 10) → peak \(peak >> 10) KiB")

        let accepted = deaf.helloAccepted()
        deaf.close()
        settle()
        let closed = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let answered = (try? await store.ping(payload: [2]))?.payload == [2]
        return Result(
            clients: clients, helloAccepted: accepted, brokerAppConnections: counted, stallTimeoutMs: stall,
            pingPayloadBytes: traffic.pingPayloadBytes, pingDelayMicros: traffic.pingDelayMicros,
            streamPayloadBytes: traffic.streamPayloadBytes, queryPageSize: Int(traffic.queryPageSize), samples: samples,
            pour: pour, bound: bound, boundBytesPerConnection: bound.bytes, brokerRSSBefore: before, brokerRSSPeak: peak, brokerRSSHeld: held, brokerRSSClosed: closed,
            growthPerClient: Double(peak - before) / Double(max(clients, 1)), peakResetWorked: peakReset, memoryPolls: polls,
            baseline: baseline, during: during, answeredAfterClose: answered)
    }

    private func pingPhase(_ store: HealthStore, count: Int) async throws -> BystanderPings.Figures {
        try await BystanderPings(store: store, brokerPID: brokerPID, count: count, intervalMicros: pingIntervalMicros, maxSeconds: Self.maxPingSeconds).run()
    }

    private func settle() {
        usleep(UInt32(max(settleMs, 0)) * 1_000)
    }

    private func micros(_ value: Double) -> String {
        value >= 10_000 ? String(format: "%.1f ms", value / 1_000) : String(format: "%.0f µs", value)
    }
}
