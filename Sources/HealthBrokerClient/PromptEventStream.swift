import BrokerModel
import BrokerWire

/// A consent agent's prompt events, as an `AsyncSequence` that throws `HealthBrokerError`.
///
/// The watch starts when iteration starts; each iteration runs it once: first every pending prompt,
/// then prompts as they are raised and resolved. Flow control keeps at most a window of events
/// buffered. Cancelling the iterating task, or leaving the loop early, ends the watch.
public struct PromptEventStream: AsyncSequence, Sendable {
    /// One prompt event.
    public typealias Element = PromptEvent
    /// Every error is a `HealthBrokerError`.
    public typealias Failure = BrokerError

    let stream: BrokerStream

    /// Starts an iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates one run of the watch.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// One prompt event.
        public typealias Element = PromptEvent
        /// Every error is a `HealthBrokerError`.
        public typealias Failure = BrokerError

        var base: BrokerStream.Iterator

        /// The next event, or nil if the broker ended the watch.
        public mutating func next() async throws(BrokerError) -> PromptEvent? {
            guard let item = try await base.next() else { return nil }
            guard case .promptEvent(let event) = item else { throw .unexpectedResponse("AdminWatchPrompts") }
            return event
        }

        /// The next event (isolation-preserving form); see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrokerError) -> PromptEvent? {
            try await next()
        }
    }
}
