package import BrokerWire

extension BrokerConnection {
    /// A server-streaming call, started when iteration starts (each iterator runs the call once).
    ///
    /// `window` is the credit the broker starts with (0: 64); the iterator grants half a window back
    /// each time the consumer has taken half a window, so at most `window` items are ever buffered.
    /// Cancelling the iterating task, or dropping the iterator early, sends Cancel.
    package func stream(_ request: Proto.Call.Request, timeout: Duration?, window: UInt32) -> BrokerStream {
        BrokerStream(connection: self, request: request, timeout: timeout, window: window)
    }

    /// A server-streaming call whose items are handed to `each` as the broker sent them (generated,
    /// not mapped to the model), for tools that show the wire (`healthctl call`); returns when the
    /// stream ends OK, throws its error. Credit is granted back as `stream`'s iterator does.
    package func rawStream(
        _ request: Proto.Call.Request, timeout: Duration?, window: UInt32, each: (Proto.StreamItem) -> Void
    ) async throws(BrokerError) {
        let cursor = StreamCursor(connection: self, request: request, timeout: timeout, window: window)
        while let item = try await cursor.nextProto() { each(item) }
    }
}
