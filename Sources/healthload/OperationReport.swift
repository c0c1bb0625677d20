/// One operation's measured results.
struct OperationReport: Sendable, Equatable, Codable {
    /// The operation (`ping`, `easd`, …).
    var operation: String
    /// The broker method.
    var method: String
    /// Calls sent in the window.
    var started: UInt64
    /// Calls that ended (OK or not).
    var completed: UInt64
    /// Calls that ended OK.
    var succeeded: UInt64
    /// Calls that ended with an error.
    var failed: UInt64
    /// Completed calls a second.
    var callsPerSecond: Double
    /// Latency of the OK calls.
    var latency: LatencySummary
    /// The latency-percentile table.
    var percentiles: [PercentilePoint]
    /// Errors by outcome name.
    var errors: [String: UInt64]
    /// Request frame bytes.
    var bytesSent: UInt64
    /// Reply frame bytes.
    var bytesReceived: UInt64
    /// Stream items received.
    var streamItems: UInt64

    /// The report of `tally` over `seconds`.
    init(operation: LoadOperation?, tally: OperationTally, seconds: Double) {
        self.operation = operation?.rawValue ?? "all"
        method = operation?.methodName ?? "(all)"
        started = tally.started
        completed = tally.completed
        succeeded = tally.succeeded
        failed = tally.failed
        callsPerSecond = seconds > 0 ? Double(tally.completed) / seconds : 0
        latency = LatencySummary(tally.latency)
        percentiles = tally.latency.percentileTable()
        errors = Dictionary(uniqueKeysWithValues: tally.errors.map { (CallOutcome.name($0.key), $0.value) })
        bytesSent = tally.bytesSent
        bytesReceived = tally.bytesReceived
        streamItems = tally.streamItems
    }
}
