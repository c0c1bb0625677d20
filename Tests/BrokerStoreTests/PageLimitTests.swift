import BrokerModel
import Foundation
import Testing
@testable import BrokerStore

/// `limitPageCount`: saves stop at the cap, deletes may use a reserve above it to make room.
@Suite("Page limit")
struct PageLimitTests {
    private typealias F = Fixture

    /// The database's size in pages.
    private static func pageCount(_ store: BrokerStore) throws -> Int64 {
        let database = try Database(path: store.databasePath)
        defer { database.close() }
        return try database.prepare("PRAGMA page_count").run { statement throws(BrokerError) in try statement.step() ? statement.int64(at: 0) : -1 }
    }

    @Test func aDeleteAtTheCapGoesThroughAndTheFileStaysWithinTheReserve() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        try store.limitPageCount(80)
        var saved: [Sample] = []
        var failure: BrokerError?
        for batch in 0..<200 where failure == nil {
            // Random uuids: a delete frees no page of the uuid index, only of the table and date indexes.
            let samples = (0..<50).map { offset in
                var sample = F.steps(batch * 50 + offset, F.base + Int64(batch * 50 + offset) * F.minute, F.base + Int64(batch * 50 + offset + 1) * F.minute)
                sample.uuid = UUID().uuidString.lowercased()
                return sample
            }
            do throws(BrokerError) {
                _ = try store.saveSamples(samples, sourceAppID: F.app, now: 1)
                saved += samples
            } catch {
                failure = error
            }
        }
        #expect(failure?.domain == .databaseInaccessible)
        #expect(try Self.pageCount(store) <= 80)
        // Half of everything at once: without the reserve its tombstones find no room.
        let half = saved.count / 2
        #expect(try store.deleteSamples(uuids: saved.prefix(half).map(\.uuid), appID: F.app, now: 2).count == half)
        #expect(try Self.pageCount(store) <= 80 + Int64(BrokerStore.deleteReservePages(80)))
        #expect(try F.readAll(store).count == saved.count - half)
        // The freed room takes new saves again; the cap still stops them eventually.
        #expect(try store.saveSamples([F.steps(100_000, 0, 1)], sourceAppID: F.app, now: 3).saved == 1)
        #expect(throws: BrokerError.self) {
            for batch in 0..<200 {
                let samples = (0..<50).map { F.steps(200_000 + batch * 50 + $0, Int64(batch * 50 + $0), Int64(batch * 50 + $0) + 1) }
                _ = try store.saveSamples(samples, sourceAppID: F.app, now: 4)
            }
        }
        #expect(try Self.pageCount(store) <= 80 + Int64(BrokerStore.deleteReservePages(80)))
    }
}
