import BrokerModel
import BrokerWire

/// The replies of one ping stream, as an `AsyncSequence` that throws `HealthBrokerError`.
///
/// The call starts when iteration starts; each iteration runs it once. Flow control keeps at most
/// `window` replies buffered. Cancelling the iterating task, or leaving the loop early, cancels it.
public struct PingStream: AsyncSequence, Sendable {
    /// One reply.
    public typealias Element = PingReply
    /// Every error is a `HealthBrokerError`.
    public typealias Failure = BrokerError

    let stream: BrokerStream

    /// Starts an iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates one run of the stream.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// One reply.
        public typealias Element = PingReply
        /// Every error is a `HealthBrokerError`.
        public typealias Failure = BrokerError

        var base: BrokerStream.Iterator

        /// The next reply, or nil once the broker has sent them all.
        public mutating func next() async throws(BrokerError) -> PingReply? {
            guard let item = try await base.next() else { return nil }
            guard case .ping(let response) = item else { throw .unexpectedResponse("PingStream") }
            return PingReply(response)
        }

        /// The next reply (isolation-preserving form); see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrokerError) -> PingReply? {
            try await next()
        }
    }
}
