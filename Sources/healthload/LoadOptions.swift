import CommandLineSupport
import Foundation
import HealthBrokerClient

/// Everything a load run is told: where the broker is, the shape of the load and where reports go.
struct LoadOptions: Sendable {
    /// The app socket.
    var socketPath: String
    /// The admin socket.
    var adminSocketPath: String
    /// Connections to open.
    var connections = 1
    /// Calls in flight per connection (nil: 1 closed loop, 1024 open loop).
    var depth: Int?
    /// Measured seconds.
    var durationSeconds = 10.0
    /// Warm-up seconds.
    var warmupSeconds = 1.0
    /// Open loop: calls a second in all; nil: closed loop.
    var rate: Double?
    /// The operations and their weights.
    var mix = OperationMix([OperationMix.Entry(operation: .ping, weight: 1)])
    /// Ping payload bytes.
    var payloadBytes = 0
    /// Samples each query streams.
    var querySamples = 100
    /// Samples each save writes.
    var saveBatch = 10
    /// Apps the connections are spread over.
    var apps = 1
    /// The app id prefix (`healthload` gives healthload.1, …).
    var appPrefix = "healthload"
    /// Driver threads (nil: the connections, at most the CPU count).
    var threads: Int?
    /// The daemon's pid (nil: from SO_PEERCRED).
    var brokerPID: Int32?
    /// Seconds calls in flight may take to finish after the window.
    var drainSeconds = 10.0
    /// Deadline sent with every call, in milliseconds (0: none).
    var callTimeoutMillis: Int64 = 0
    /// Where to write the JSON report.
    var jsonPath: String?
    /// Where to write the SVG plot.
    var svgPath: String?
    /// Decode and check every reply.
    var verify = false
    /// The custom op's method and request (`--request METHOD=JSON`).
    var customRequest: CustomRequest?
    /// Whether a broker holding other apps' data may be written to.
    var allowWritesToLiveStore = false
    /// Whether the load apps and their samples stay after the run.
    var keep = false
    /// No progress lines.
    var quiet = false

    /// Options with every default, for the broker at these sockets.
    init(socketPath: String, adminSocketPath: String) {
        self.socketPath = socketPath
        self.adminSocketPath = adminSocketPath
    }

    /// Reads a parsed command line.
    init(_ command: ParsedCommand) throws(ArgumentError) {
        self.init(socketPath: try command.requiredString("socket"), adminSocketPath: try command.requiredString("admin-socket"))
        connections = try command.int("connections", in: 1...100_000) ?? 1
        depth = try command.int("depth", in: 1...1_000_000)
        durationSeconds = try Self.seconds(command, "duration", in: 0.001...86_400) ?? 10
        warmupSeconds = try Self.seconds(command, "warmup", in: 0...86_400) ?? 1
        rate = try Self.seconds(command, "rate", in: 0.001...100_000_000)
        if let text = command.string("op") {
            do {
                mix = try OperationMix(parsing: text)
            } catch {
                throw ArgumentError(.invalidValue, "invalid value '\(text)' for option '--op': \(error)", command: command.commandName)
            }
        }
        payloadBytes = try command.int("payload-bytes", in: 0...(1 << 22)) ?? 0
        querySamples = try command.int("query-samples", in: 1...10_000_000) ?? 100
        saveBatch = try command.int("batch", in: 1...100_000) ?? 10
        apps = try command.int("apps", in: 1...4_095) ?? 1
        threads = try command.int("threads", in: 1...4_096)
        brokerPID = try command.int("broker-pid", in: 1...Int(Int32.max)).map { Int32($0) }
        drainSeconds = try Self.seconds(command, "drain", in: 0...3_600) ?? 10
        callTimeoutMillis = try command.int64("call-timeout", in: 0...3_600_000) ?? 0
        jsonPath = command.string("json")
        svgPath = command.string("svg")
        verify = command.flag("verify")
        allowWritesToLiveStore = command.flag("allow-writes-to-live-store")
        if let text = command.string("request") {
            do {
                customRequest = try CustomRequest(parsing: text)
            } catch {
                throw ArgumentError(.invalidValue, "invalid value for option '--request': \(error)", command: command.commandName)
            }
        }
        if mix.contains(.custom) != (customRequest != nil) {
            throw ArgumentError(
                .invalidValue, "--op custom and --request METHOD=JSON go together", command: command.commandName)
        }
        keep = command.flag("keep")
        quiet = command.flag("quiet")
    }

    /// Calls in flight per connection.
    var effectiveDepth: Int { depth ?? (rate == nil ? 1 : 1_024) }

    /// Driver threads.
    var effectiveThreads: Int {
        min(connections, threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Whether the calls in the mix need the load apps to be authorized.
    var needsAuthorization: Bool { mix.operations.contains { $0 != .ping } }

    /// The app ids the run uses.
    var appIDs: [String] { (1...apps).map { "\(appPrefix).\($0)" } }

    /// A number of seconds from option `name`, within `range`.
    private static func seconds(_ command: ParsedCommand, _ name: String, in range: ClosedRange<Double>) throws(ArgumentError) -> Double? {
        guard let value = try command.double(name) else { return nil }
        guard range.contains(value) else {
            throw ArgumentError(.invalidValue, "invalid value '\(value)' for option '--\(name)': expected a number from \(range.lowerBound) to \(range.upperBound)", command: command.commandName)
        }
        return value
    }
}
