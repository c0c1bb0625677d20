import Foundation
import BrokerModel
import BrokerWire

/// Change notifications for observed types, as an `AsyncSequence` that throws `HealthBrokerError`.
///
/// The observation starts when iteration starts; each iteration runs it once and it has no deadline:
/// it runs until the consumer stops iterating, the connection closes or the broker stops. It fires
/// only for changes the app may read. Cancelling the iterating task, or leaving the loop, ends it.
public struct SampleChangeSequence: AsyncSequence, Sendable {
    /// One notification.
    public typealias Element = SampleChange
    /// Every error is a `HealthBrokerError`.
    public typealias Failure = BrokerError

    /// How many notifications the broker may send ahead of the consumer.
    package static let window: UInt32 = 64

    let stream: BrokerStream

    /// Starts an iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates one run of the observation.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// One notification.
        public typealias Element = SampleChange
        /// Every error is a `HealthBrokerError`.
        public typealias Failure = BrokerError

        var base: BrokerStream.Iterator

        /// The next notification, or nil if the broker ended the observation.
        public mutating func next() async throws(BrokerError) -> SampleChange? {
            guard let item = try await base.next() else { return nil }
            guard case .observed(let type, let micros) = item else { throw .unexpectedResponse("Observe") }
            return SampleChange(type: type, changed: Date(microsecondsSince1970: micros))
        }

        /// The next notification (isolation-preserving form); see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrokerError) -> SampleChange? {
            try await next()
        }
    }
}
