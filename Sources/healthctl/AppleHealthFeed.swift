import Foundation

/// Runs the parser on a thread of its own (XMLParser is synchronous) and hands its chunks to the
/// async importer, at most `capacity` ahead: memory stays bounded however fast the file reads.
/// Once the feed is gone (the import stopped early), the parser drops what it reads.
final class AppleHealthFeed: @unchecked Sendable {
    /// What the feed yields: chunks, then one end.
    enum Item: Sendable {
        /// A batch of samples.
        case chunk(AppleHealthChunk)
        /// The end: what was read, and the error that ended it early (XML or unzip), if any.
        case end(AppleHealthCounts, failure: String?)
    }

    /// The items, in order.
    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let room: AppleHealthFeedRoom

    /// A feed that will parse `input` in batches of `batchSize`.
    init(input: AppleHealthInput, batchSize: Int, capacity: Int = 2) {
        (items, continuation) = AsyncStream<Item>.makeStream()
        room = AppleHealthFeedRoom(capacity: capacity)
        let continuation = self.continuation
        let room = self.room
        let thread = Thread {
            let parser = AppleHealthParser(batchSize: batchSize) { chunk in
                guard room.take() else { return }
                continuation.yield(.chunk(chunk))
            }
            parser.parse(input.stream)
            let unzipFailure = input.finish()
            continuation.yield(.end(parser.counts, failure: parser.failure ?? unzipFailure))
            continuation.finish()
        }
        thread.name = "apple-health parser"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Lets the parsing thread go on without anyone taking its chunks (it drops them).
    deinit {
        room.close()
    }

    /// Tells the parser a chunk was taken, so it may read on.
    func took() {
        room.give()
    }
}
