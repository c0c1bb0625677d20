/// Everything one run measured: the JSON report, and what the summary and the plot are made from.
struct LoadReport: Sendable, Codable {
    /// How the run was set up.
    struct Configuration: Sendable, Codable, Equatable {
        /// The app socket.
        var socket: String
        /// Connections.
        var connections: Int
        /// Calls in flight per connection (open loop: the cap).
        var depth: Int
        /// Driver threads.
        var threads: Int
        /// `closed` or `open`.
        var mode: String
        /// Open loop: calls a second asked for.
        var rate: Double?
        /// The operation mix, e.g. `ping:8,easd:1`.
        var mix: String
        /// Seconds measured as asked.
        var durationSeconds: Double
        /// Warm-up seconds.
        var warmupSeconds: Double
        /// Ping payload bytes.
        var payloadBytes: Int
        /// Samples per query.
        var querySamples: Int
        /// Samples per save.
        var batch: Int
        /// Apps used.
        var apps: Int
        /// Whether replies were checked in full.
        var verify: Bool
    }

    /// The broker's side.
    struct Broker: Sendable, Codable, Equatable {
        /// The daemon's pid, if known.
        var pid: Int32?
        /// Where the pid came from: `SO_PEERCRED` or `--broker-pid`.
        var pidSource: String?
        /// Its version.
        var version: String?
        /// CPU seconds (user + system) it used in the window.
        var cpuSeconds: Double?
        /// Its CPU time per completed call, in microseconds.
        var cpuMicrosPerCall: Double?
        /// Reply frames it wrote in the window (all connections).
        var framesSent: UInt64?
        /// Write syscalls that carried them.
        var writeCalls: UInt64?
        /// Reply frames per write syscall.
        var framesPerWrite: Double?
    }

    /// The driver's own side.
    struct Client: Sendable, Codable, Equatable {
        /// CPU seconds healthload used in the window.
        var cpuSeconds: Double?
        /// Its CPU time per completed call, in microseconds.
        var cpuMicrosPerCall: Double?
    }

    /// The run's setup.
    var configuration: Configuration
    /// Seconds actually measured (shorter when stopped early).
    var measuredSeconds: Double
    /// Whether the run was stopped early (SIGINT).
    var stoppedEarly: Bool
    /// Calls sent in the window.
    var started: UInt64
    /// Calls that ended, OK or not.
    var completed: UInt64
    /// Calls that ended OK.
    var succeeded: UInt64
    /// Calls that ended with an error (client-side outcomes included).
    var failed: UInt64
    /// Open loop: calls due in the window that never went out.
    var unsent: UInt64
    /// Replies for no call in flight.
    var strayReplies: UInt64
    /// Completed calls a second.
    var callsPerSecond: Double
    /// OK calls a second.
    var succeededPerSecond: Double
    /// Latency of the OK calls.
    var latency: LatencySummary
    /// The latency-percentile table of all OK calls.
    var percentiles: [PercentilePoint]
    /// Errors by outcome name.
    var errors: [String: UInt64]
    /// Request frame bytes.
    var bytesSent: UInt64
    /// Reply frame bytes.
    var bytesReceived: UInt64
    /// Request plus reply bytes a second.
    var bytesPerSecond: Double
    /// Each operation of the mix.
    var operations: [OperationReport]
    /// The broker's CPU and write batching.
    var broker: Broker
    /// The driver's CPU.
    var client: Client
}
