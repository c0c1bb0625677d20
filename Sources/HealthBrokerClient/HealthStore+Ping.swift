import BrokerModel
import BrokerWire

extension HealthStore {
    /// Asks the broker to answer after `delay`, echoing `payload`; for liveness and latency checks.
    ///
    /// With a `timeout`, the call ends with DEADLINE_EXCEEDED if the answer is not back in time.
    public func ping(payload: [UInt8] = [], delay: Duration = .zero, timeout: Duration? = nil) async throws(BrokerError) -> PingReply {
        try await connection.unary(Self.pingRequest(payload, delay), timeout: timeout) { response in
            if case .ping(let reply) = response { PingReply(PingResponse(proto: reply)) } else { nil }
        }
    }

    /// Pings the broker and hands the result to `completion`, which runs on a background queue.
    public func ping(payload: [UInt8] = [], delay: Duration = .zero, timeout: Duration? = nil, completion: @escaping @Sendable (Result<PingReply, BrokerError>) -> Void) {
        connection.unary(Self.pingRequest(payload, delay), timeout: timeout) { result in
            completion(result.flatMap { response in
                if case .ping(let reply) = response { .success(PingReply(PingResponse(proto: reply))) } else { .failure(.unexpectedResponse("Ping")) }
            })
        }
    }

    /// Streams `count` ping replies echoing `payload`, with at most `window` buffered (0: 64).
    public func pingStream(count: UInt32, payload: [UInt8] = [], window: UInt32 = 64) -> PingStream {
        PingStream(stream: connection.stream(.pingStream(PingStreamRequest(count: count, payload: payload).proto), timeout: nil, window: window))
    }

    private static func pingRequest(_ payload: [UInt8], _ delay: Duration) -> Proto.Call.Request {
        .ping(PingRequest(delayMicros: max(0, delay.wholeMicrosecondsRoundedUp), payload: payload).proto)
    }
}
