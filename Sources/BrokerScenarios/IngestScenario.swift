import Foundation
import HealthBrokerClient

/// Durable ingest: batches of new step samples saved with `HealthStore.save` over C connections,
/// D saves in flight on each. A save returns once the broker has committed its batch, so every
/// acknowledged sample is on disk (as durable as the daemon's synchronous mode makes it).
struct IngestScenario {
    /// The broker's app socket.
    let socketPath: String
    /// The broker's admin socket.
    let adminSocketPath: String
    /// The daemon.
    let brokerPID: Int32
    /// Batches in all.
    let batches: Int
    /// Samples per batch.
    let batchSize: Int
    /// Connections.
    let connections: Int
    /// Saves in flight per connection.
    let depth: Int
    /// Whether the samples get `SampleUUID.make()` (the client's default) instead of random-looking v4 UUIDs.
    let timeOrderedUUIDs: Bool
    /// A free-form label (e.g. "synchronous=NORMAL").
    let label: String
    /// Progress notes.
    let log: @Sendable (String) -> Void

    /// The figures.
    struct Result: Codable, Sendable {
        /// "ingest".
        var scenario = "ingest"
        /// The label given.
        var label: String
        /// Batches saved.
        var batches: Int
        /// Samples per batch.
        var batchSize: Int
        /// Connections.
        var connections: Int
        /// Saves in flight per connection.
        var depth: Int
        /// "random" or "time-ordered" (absent in results from before the option existed).
        var uuids: String?
        /// Samples the broker reported saved (new).
        var saved: Int
        /// Seconds from the first save sent to the last acknowledged.
        var seconds: Double
        /// Saved samples per second.
        var samplesPerSecond: Double
        /// Batches (commits) per second.
        var batchesPerSecond: Double
        /// Median and worst save latency, ms.
        var saveMedianMs: Double
        /// The slowest save, ms.
        var saveMaxMs: Double
        /// Broker CPU time per sample, µs.
        var brokerCPUMicrosPerSample: Double
        /// The broker's RSS at the end, bytes.
        var brokerRSSAfter: Int
    }

    /// Prepares the writer app, builds every batch, then saves them and times it.
    func run() async throws -> Result {
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let token = try await ScenarioApps(socketPath: socketPath, admin: admin).prepare("scenarios.writer", grant: .share)
        var stores: [HealthStore] = []
        for _ in 0..<connections {
            stores.append(try await HealthStore.connect(socketPath: socketPath, appID: "scenarios.writer", appToken: token))
        }
        defer { stores.forEach { $0.close() } }

        // New uuids every run (a random seed); minutes laid end to end from 2010-01-01, far from the
        // query scenario's range, so both can share a daemon.
        let generator = MinuteSteps(seed: UInt64.random(in: 1...UInt64.max))
        let total = batches * batchSize
        let first: Int64 = 1_262_304_000 * 1_000_000
        var work = (0..<batches).map { generator.samples(from: first + Int64($0 * batchSize) * MinuteSteps.minute, count: batchSize) }
        if timeOrderedUUIDs {
            // What HealthStore's initialisers give a sample made now: the creation time first.
            for batch in work.indices {
                for index in work[batch].indices { work[batch][index].uuid = SampleUUID.make() }
            }
        }
        log("ingest: \(batches) batches of \(batchSize) built; saving over \(connections) connection(s) × \(depth)")

        let queue = BatchQueue(work)
        let cpuBefore = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let began = ContinuousClock.now
        let outcomes = try await withThrowingTaskGroup(of: (saved: Int, latencies: [Double]).self) { group in
            for worker in 0..<(connections * depth) {
                let store = stores[worker % connections]
                group.addTask {
                    var saved = 0
                    var latencies: [Double] = []
                    while let batch = queue.next() {
                        let sent = ContinuousClock.now
                        let result = try await store.save(batch)
                        latencies.append((ContinuousClock.now - sent).seconds * 1_000)
                        saved += result.saved
                    }
                    return (saved, latencies)
                }
            }
            var all: [(saved: Int, latencies: [Double])] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let seconds = (ContinuousClock.now - began).seconds
        let cpuAfter = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let saved = outcomes.reduce(0) { $0 + $1.saved }
        guard saved == total else { throw ScenarioFailure("the broker saved \(saved) new samples, expected \(total)") }
        let latencies = outcomes.flatMap(\.latencies)
        return Result(
            label: label, batches: batches, batchSize: batchSize, connections: connections, depth: depth,
            uuids: timeOrderedUUIDs ? "time-ordered" : "random", saved: saved,
            seconds: seconds, samplesPerSecond: Double(saved) / seconds, batchesPerSecond: Double(batches) / seconds,
            saveMedianMs: QueryScenario.median(latencies), saveMaxMs: latencies.max() ?? 0,
            brokerCPUMicrosPerSample: Double(cpuAfter - cpuBefore) / Double(max(saved, 1)),
            brokerRSSAfter: ProcessMemory.read(pid: brokerPID)?.rss ?? 0)
    }
}

/// Hands out prepared batches to concurrent savers, each once.
final class BatchQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[Sample]]
    private var index = 0

    /// A queue of `batches`, in order.
    init(_ batches: [[Sample]]) {
        self.batches = batches
    }

    /// The next batch, or nil when all are taken.
    func next() -> [Sample]? {
        lock.withLock {
            guard index < batches.count else { return nil }
            defer { batches[index] = []; index += 1 }
            return batches[index]
        }
    }
}
