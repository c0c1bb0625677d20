import BrokerModel
package import BrokerWire

/// The items of one server-streaming call, as an `AsyncSequence` that throws `BrokerError`.
package struct BrokerStream: AsyncSequence, Sendable {
    /// One stream item.
    package typealias Element = StreamItem
    /// Every error is a `BrokerError`.
    package typealias Failure = BrokerError

    let connection: BrokerConnection
    let request: Proto.Call.Request
    let timeout: Duration?
    let window: UInt32

    /// Starts an iteration; the call itself is sent on the first `next()`.
    package func makeAsyncIterator() -> Iterator {
        Iterator(cursor: StreamCursor(connection: connection, request: request, timeout: timeout, window: window))
    }

    /// Iterates one run of the call; dropping it before the end cancels the call.
    package struct Iterator: AsyncIteratorProtocol, Sendable {
        /// One stream item.
        package typealias Element = StreamItem
        /// Every error is a `BrokerError`.
        package typealias Failure = BrokerError

        let cursor: StreamCursor

        /// The next item, nil after the stream ended OK; throws the call's error (then nil forever).
        package mutating func next() async throws(BrokerError) -> StreamItem? {
            try await cursor.next()
        }

        /// The next item (isolation-preserving form); see `next()`.
        package mutating func next(isolation actor: isolated (any Actor)?) async throws(BrokerError) -> StreamItem? {
            try await cursor.next()
        }
    }
}
