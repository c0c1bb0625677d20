#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthBrokerClient

/// A well-behaved client's pings through `HealthStore`: one in flight, a pause between them, each
/// timed from the call to the return of `await`.
struct BystanderPings {
    /// The client.
    let store: HealthStore
    /// The daemon, whose CPU time over the run is read (a parked producer must not spin).
    let brokerPID: Int32
    /// Pings to time.
    let count: Int
    /// Pause after each ping, µs.
    let intervalMicros: Int
    /// The phase ends after this long even if fewer pings were made.
    let maxSeconds: Double

    /// The figures of one run.
    struct Figures: Codable, Sendable {
        /// Pings timed.
        var pings: Int
        /// Seconds the run took.
        var seconds: Double
        /// Median, µs.
        var p50Micros: Double
        /// 99th percentile, µs.
        var p99Micros: Double
        /// Slowest, µs.
        var maxMicros: Double
        /// The broker's CPU time over the run, % of one core (its pings' share included).
        var brokerCPUPercent: Double
    }

    /// Pings `count` times (fewer if `maxSeconds` runs out).
    func run() async throws -> Figures {
        let payload = [UInt8](repeating: 0x5A, count: 32)
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        let cpuBefore = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let began = ContinuousClock.now
        while latencies.count < count, (ContinuousClock.now - began).seconds < maxSeconds {
            let start = ContinuousClock.now
            _ = try await store.ping(payload: payload)
            latencies.append((ContinuousClock.now - start).seconds * 1e6)
            if intervalMicros > 0 { try await Task.sleep(for: .microseconds(intervalMicros)) }
        }
        let seconds = (ContinuousClock.now - began).seconds
        let cpu = Double((ProcessMemory.cpuMicros(pid: brokerPID) ?? 0) - cpuBefore)
        latencies.sort()
        guard let slowest = latencies.last else { throw ScenarioFailure("no ping was made") }
        return Figures(
            pings: latencies.count, seconds: seconds,
            p50Micros: latencies[latencies.count / 2], p99Micros: latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
            maxMicros: slowest, brokerCPUPercent: cpu / max(seconds * 1e6, 1) * 100)
    }
}
