import Foundation
@testable import healthctl
import Testing

/// The feed between the parsing thread and the importer when the import stops early (a batch
/// refused): letting the feed go must neither crash nor leave the parser waiting for room.
@Suite struct AppleHealthFeedTests {
    /// An export.xml of `records` step records (one chunk per `batchSize`), written to a temporary file.
    static func export(records: Int) throws -> String {
        var body = AppleHealthParserTests.header
        for minute in 0..<records {
            let start = String(format: "2024-03-01 %02d:%02d:00 +0000", minute / 60 % 24, minute % 60)
            body += AppleHealthParserTests.record("HKQuantityTypeIdentifierStepCount", String(minute % 90 + 1), start: start, end: start)
        }
        body += "</HealthData>\n"
        let path = NSTemporaryDirectory() + "healthctl-feed-\(UUID().uuidString).xml"
        try Data(body.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Counts what `items` yields until it ends: chunks and whether the end came.
    static func drain(_ items: AsyncStream<AppleHealthFeed.Item>) async -> (chunks: Int, ended: Bool) {
        var chunks = 0
        var ended = false
        for await item in items {
            switch item {
            case .chunk: chunks += 1
            case .end: ended = true
            }
        }
        return (chunks, ended)
    }

    /// The parser finished with chunks nobody took (the importer stopped after the first): before,
    /// the feed's DispatchSemaphore was released below its initial count and libdispatch trapped.
    @Test func aFeedLetGoAfterTheParserFinishedWithUntakenChunks() async throws {
        let path = try Self.export(records: 30)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var feed: AppleHealthFeed? = AppleHealthFeed(input: try AppleHealthInput(path: path), batchSize: 10, capacity: 2)
        let items = try #require(feed?.items)
        var iterator = items.makeAsyncIterator()
        guard case .chunk = await iterator.next() else { Issue.record("no first chunk"); return }
        feed?.took()
        // The other two chunks and the end arrive without being taken: the parser is done.
        var rest = 0
        var ended = false
        while let item = await iterator.next() {
            if case .end = item { ended = true } else { rest += 1 }
        }
        #expect(rest == 2)
        #expect(ended)
        feed = nil
    }

    /// The parser waits for room (nothing taken) when the importer stops: letting the feed go frees
    /// it, and it reads on to the end, dropping its chunks, instead of waiting forever.
    @Test func aFeedLetGoWhileTheParserWaitsLetsItFinish() async throws {
        let path = try Self.export(records: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var feed: AppleHealthFeed? = AppleHealthFeed(input: try AppleHealthInput(path: path), batchSize: 10, capacity: 2)
        let items = try #require(feed?.items)
        feed = nil
        // Two chunks fit before the parser waits; the other eight are dropped once the feed is gone.
        let seen = await Self.drain(items)
        #expect(seen.chunks <= 2)
        #expect(seen.ended)
    }

    /// Taken as the importer takes them, every chunk arrives, then the end.
    @Test func everyTakenChunkArrives() async throws {
        let path = try Self.export(records: 95)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let feed = AppleHealthFeed(input: try AppleHealthInput(path: path), batchSize: 10, capacity: 2)
        var chunks = 0
        var samples = 0
        var ended = false
        for await item in feed.items {
            switch item {
            case .chunk(let chunk):
                feed.took()
                chunks += 1
                samples += chunk.batch.samples.count
            case .end:
                ended = true
            }
        }
        #expect(chunks == 10)
        #expect(samples == 95)
        #expect(ended)
    }
}
