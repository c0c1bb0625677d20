import BrokerModel
import BrokerWire

/// The samples of a query (or an admin export), as an `AsyncSequence` that throws `HealthBrokerError`.
///
/// The broker streams pages of samples; the sequence yields them one by one, in order. Flow control
/// lets the broker run at most `pageWindow` pages ahead of the consumer, so memory stays flat however
/// many samples match. The call starts when iteration starts; each iteration runs it once. There is
/// no deadline. Cancelling the iterating task, or leaving the loop early, cancels the call.
public struct SampleSequence: AsyncSequence, Sendable {
    /// One sample.
    public typealias Element = Sample
    /// Every error is a `HealthBrokerError`.
    public typealias Failure = BrokerError

    /// How many pages the broker may send ahead of the consumer.
    package static let pageWindow: UInt32 = 4

    let stream: BrokerStream
    /// An argument error found before the call was sent: the first `next()` throws it, and nothing is sent.
    let invalid: BrokerError?

    /// A sequence over `stream`'s `.samples` pages, or one that fails with `invalid` at once.
    init(stream: BrokerStream, invalid: BrokerError? = nil) {
        self.stream = stream
        self.invalid = invalid
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), method: stream.request.method.name, pending: invalid)
    }

    /// Iterates one run of the call, a page at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// One sample.
        public typealias Element = Sample
        /// Every error is a `HealthBrokerError`.
        public typealias Failure = BrokerError

        var base: BrokerStream.Iterator
        let method: String
        var pending: BrokerError?
        var finished = false
        var page: [Sample] = []
        var index = 0

        /// The next sample, or nil once the broker has sent them all.
        public mutating func next() async throws(BrokerError) -> Sample? {
            if let error = pending {
                pending = nil
                finished = true
                throw error
            }
            while index == page.count {
                page = []
                index = 0
                guard !finished, let item = try await base.next() else {
                    finished = true
                    return nil
                }
                guard case .samples(let samples) = item else {
                    finished = true
                    throw .unexpectedResponse(method)
                }
                page = samples
            }
            defer { index += 1 }
            return page[index]
        }

        /// The next sample (isolation-preserving form); see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrokerError) -> Sample? {
            try await next()
        }
    }
}
