import BrokerModel
import BrokerStore
import Foundation
import Testing

@Suite("Background checkpoints")
struct BackgroundCheckpointTests {
    private typealias F = Fixture

    /// The size of the database's WAL file in bytes (0 when there is none).
    private static func walBytes(_ store: BrokerStore) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: store.databasePath + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func aGrowingWALIsCheckpointedOffTheCommittingThreadAndNothingIsLost() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        try store.checkpointInBackground()
        // Well past the 1,000 pages of WAL that ask for a checkpoint: 12,000 samples were enough
        // until schema version 6 made the rows smaller, 30,000 leave a wide margin.
        var uuids = Set<String>()
        for batch in 0..<30 {
            let samples = (0..<1_000).map { index in
                let n = batch * 1_000 + index
                return F.steps(n, F.base + Int64(n) * F.minute, F.base + Int64(n + 1) * F.minute)
            }
            uuids.formUnion(samples.map(\.uuid))
            #expect(try store.saveSamples(samples, sourceAppID: F.app, now: 1).saved == 1_000)
        }
        for _ in 0..<200 where store.backgroundCheckpoints == 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(store.backgroundCheckpoints >= 1)
        // The writer starts the WAL over once a checkpoint copied all of it: it stays near 1,000 pages, not 30,000 samples' worth.
        #expect(Self.walBytes(store) < 16 << 20)
        store.close()

        // Closing checkpoints the rest; a fresh open reads every sample.
        #expect(Self.walBytes(store) == 0)
        let reopened = try BrokerStore(dataDirectory: directory.path)
        defer { reopened.close() }
        #expect(Set(try F.readAll(reopened, pageSize: 4_096).map(\.uuid)) == uuids)
    }

    @Test func withoutBackgroundCheckpointsNoneRun() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        let saved = try store.saveSamples([F.steps(1, F.base, F.base + F.minute)], sourceAppID: F.app, now: 1)
        #expect(saved.saved == 1)
        #expect(store.backgroundCheckpoints == 0)
    }
}
