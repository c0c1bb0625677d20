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
}
