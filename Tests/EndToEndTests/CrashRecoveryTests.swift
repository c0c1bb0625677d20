import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Killing the daemon with SIGKILL at random moments during batched ingest loses nothing acknowledged.
@Suite("Crash recovery")
struct CrashRecoveryTests {
    /// Rounds of kill -9 during ingest (the reliability run recorded in docs/RELIABILITY.md).
    static let rounds = 20

    @Test func everyAcknowledgedBatchSurvivesKillNineAndNoBatchIsHalfThere() async throws {
        try await killDuringIngest(rounds: Self.rounds, daemonArguments: [])
    }

    /// The same with `--synchronous-full`, where acknowledgements wait for the WAL syncer's fsync.
    @Test func withPowerLossDurabilityEveryAcknowledgedBatchSurvivesKillNineToo() async throws {
        try await killDuringIngest(rounds: 6, daemonArguments: ["--synchronous-full"])
    }

    /// Rounds of three writers ingesting batches of 100 while the daemon is killed with SIGKILL at a
    /// random moment and restarted; then checks every acknowledged batch is whole and none is half there.
    private func killDuringIngest(rounds: Int, daemonArguments: [String]) async throws {
        let daemon = try await DaemonProcess(extraArguments: daemonArguments, policy: allowAll)
        let credentials = try await daemon.registerApp("com.example.ingest")
        let setup = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.ingest", appToken: credentials.token)
        try await setup.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(5))
        setup.close()

        let ledger = BatchLedger()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            // Three clients ingest batches of 100 as fast as they can.
            let writers = (0..<3).map { writer in
                Task {
                    guard let store = try? await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.ingest", appToken: credentials.token) else { return }
                    defer { store.close() }
                    for batch in 0..<1_000 {
                        let key = "r\(round)-w\(writer)-b\(batch)"
                        let offset = Int64(((round * 3 + writer) * 1_000 + batch) * 100)
                        let samples = (0..<100).map { index in
                            stepSample(base + (offset + Int64(index)) * 1_000_000, base + (offset + Int64(index)) * 1_000_000 + 1)
                        }
                        ledger.attempt(key, samples.map(\.uuid))
                        do {
                            _ = try await store.save(samples)
                            ledger.acknowledge(key)
                        } catch {
                            return
                        }
                    }
                }
            }
            // Kill only once this round has an acknowledged batch, so every round kills real ingest
            // in flight however slow the machine is (with --synchronous-full a loaded CI machine
            // acknowledged barely one batch in 400 ms), then at a random moment after it.
            let clock = ContinuousClock()
            let giveUp = clock.now + .seconds(30)
            while ledger.acknowledgedCount(round: round) == 0, clock.now < giveUp {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(ledger.acknowledgedCount(round: round) > 0, "round \(round) acknowledged nothing in 30 s")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...300, using: &generator)))
            try await daemon.stop(signal: SIGKILL)
            for writer in writers { await writer.value }
            try await daemon.start()
        }

        let reader = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.ingest", appToken: credentials.token)
        defer { reader.close() }
        var present = Set<String>()
        for try await sample in reader.samples(of: .stepCount, pageSize: 4_096) { present.insert(sample.uuid) }
        let (acknowledged, attempted) = ledger.snapshot()
        #expect(acknowledged.count >= rounds)   // every round acknowledged a batch before its kill
        var missing = 0, halfThere = 0
        for (key, uuids) in attempted {
            let stored = uuids.filter(present.contains).count
            if acknowledged.contains(key), stored != uuids.count { missing += 1 }
            if stored != 0, stored != uuids.count { halfThere += 1 }
        }
        #expect(missing == 0)
        #expect(halfThere == 0)
        print("crash recovery\(daemonArguments.isEmpty ? "" : " (\(daemonArguments.joined(separator: " ")))"): \(rounds) kill -9 rounds, \(acknowledged.count) acknowledged batches of 100, \(attempted.count) attempted, \(present.count) samples present, 0 lost, 0 half-written")
    }
}

/// What the writers tried and what the broker acknowledged, shared across tasks.
final class BatchLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var attempted: [String: [String]] = [:]
    private var acknowledged: Set<String> = []

    func attempt(_ key: String, _ uuids: [String]) { lock.withLock { attempted[key] = uuids } }
    func acknowledge(_ key: String) { _ = lock.withLock { acknowledged.insert(key) } }
    /// How many of one round's batches were acknowledged (keys start with "r<round>-").
    func acknowledgedCount(round: Int) -> Int {
        let prefix = "r\(round)-"
        return lock.withLock { acknowledged.count { $0.hasPrefix(prefix) } }
    }
    func snapshot() -> (Set<String>, [String: [String]]) { lock.withLock { (acknowledged, attempted) } }
}
