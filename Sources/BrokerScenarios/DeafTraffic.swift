import BrokerWire
import HealthBrokerClient

/// What a client that never reads writes after connecting: Hello, then a pipelined mix of the
/// three kinds of call that once grew the broker without bound (issue 15), far more bytes than the
/// broker will read while its replies go unread.
struct DeafTraffic: Sendable {
    /// Queries sent back to back in each group.
    static let queriesPerGroup = 64
    /// Query groups, each followed by one big delayed ping: far past what the broker reads.
    static let groups = 16

    /// Queries' page size: the largest the broker allows, the biggest pages it can hold.
    var queryPageSize: UInt32 = 4_096
    /// The PingStream's item payload, bytes.
    var streamPayloadBytes = 128 << 10
    /// Each big ping's payload, bytes.
    var pingPayloadBytes = 1 << 20
    /// Each big ping's delay, µs.
    var pingDelayMicros: Int64 = 250_000

    /// The three byte streams, each Hello and then the same calls with a different one first
    /// (a PingStream, a group of queries or a big ping): which call the broker reads before it stops
    /// reading depends on the order, so the clients are dealt the orders in turn.
    func streams(hello: HelloRequest) -> [[UInt8]] {
        (0..<3).map { stream(hello: hello, rotation: $0) }
    }

    /// Hello; then the first group rotated by `rotation` (PingStream, queries, big ping), then
    /// `groups − 1` more groups of queries and a big ping. Call ids count up from 2.
    func stream(hello: HelloRequest, rotation: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var callID: UInt64 = 1
        func append(_ request: Proto.Call.Request, credit: UInt32 = 0) {
            let call = Proto.Call.with {
                $0.callID = callID
                $0.initialCredit = credit
                $0.request = request
            }
            Proto.ClientFrame.appendFrame(call: call, to: &bytes)
            callID += 1
        }
        append(.hello(hello.proto))
        let stream = Proto.Call.Request.pingStream(PingStreamRequest(count: .max, payload: [UInt8](repeating: 0x53, count: streamPayloadBytes)).proto)
        let query = Proto.Call.Request.query(SampleQuery(type: .stepCount, pageSize: queryPageSize).proto)
        let ping = Proto.Call.Request.ping(PingRequest(delayMicros: pingDelayMicros, payload: [UInt8](repeating: 0x50, count: pingPayloadBytes)).proto)
        // Credit 2^32 − 1 everywhere: the broker clamps it to 4,096 and must not allocate for it.
        let parts: [() -> Void] = [
            { append(stream, credit: .max) },
            { for _ in 0..<Self.queriesPerGroup { append(query, credit: .max) } },
            { append(ping) },
        ]
        for index in 0..<parts.count { parts[(index + rotation) % parts.count]() }
        for _ in 1..<Self.groups {
            parts[1]()
            parts[2]()
        }
        return bytes
    }
}
