/// Counts for one operation's measured calls: started, ended, errors by code, latency and bytes.
struct OperationTally: Sendable, Equatable {
    /// Calls sent.
    var started: UInt64 = 0
    /// Calls that ended OK.
    var succeeded: UInt64 = 0
    /// Calls that ended otherwise.
    var failed: UInt64 = 0
    /// Failed calls by outcome code (`CallOutcome`).
    var errors: [Int32: UInt64] = [:]
    /// Latency of the calls that ended OK (nanoseconds).
    var latency = LatencyHistogram()
    /// Request frame bytes written (headers included).
    var bytesSent: UInt64 = 0
    /// Reply frame bytes read (headers and stream items included).
    var bytesReceived: UInt64 = 0
    /// Stream items received.
    var streamItems: UInt64 = 0

    /// Calls that ended, either way.
    var completed: UInt64 { succeeded + failed }

    /// Counts a failed call with outcome `code`.
    mutating func recordFailure(_ code: Int32) {
        failed += 1
        errors[code, default: 0] += 1
    }

    /// Adds `other`'s counts.
    mutating func merge(_ other: OperationTally) {
        started += other.started
        succeeded += other.succeeded
        failed += other.failed
        for (code, count) in other.errors { errors[code, default: 0] += count }
        latency.merge(other.latency)
        bytesSent += other.bytesSent
        bytesReceived += other.bytesReceived
        streamItems += other.streamItems
    }
}
