import Foundation
import HealthBrokerClient

/// One call in flight through the public Swift client (`HealthStore`): each call is awaited before
/// the next is sent, and its latency is taken from the call to the return of `await`.
struct LatencyScenario {
    /// The broker's app socket.
    let socketPath: String
    /// The broker's admin socket.
    let adminSocketPath: String
    /// The daemon.
    let brokerPID: Int32
    /// Calls measured per operation.
    let calls: Int
    /// Calls made first and not measured.
    let warmupCalls: Int
    /// The ping payload's size in bytes.
    let payloadBytes: Int
    /// What to measure, in this order.
    let operations: [Operation]
    /// Progress notes.
    let log: @Sendable (String) -> Void

    /// The figures of one operation.
    struct Figures: Codable, Sendable {
        /// "ping" or "easd", then " on store.executor" when the caller prefers the store's executor.
        var operation: String
        /// Calls measured.
        var calls: Int
        /// Median latency, µs.
        var p50Micros: Double
        /// 99th percentile, µs.
        var p99Micros: Double
        /// Calls per second (one in flight).
        var callsPerSecond: Double
        /// Broker CPU per call, µs.
        var brokerCPUMicrosPerCall: Double
        /// This client process's CPU per call, µs (nil in files written before it was measured).
        var clientCPUMicrosPerCall: Double?
    }

    /// The figures.
    struct Result: Codable, Sendable {
        /// "latency".
        var scenario = "latency"
        /// One entry per measured operation, in the order of `operations` (by default ping and
        /// EarliestAuthorizedSampleDate from the global executor, then from the store's own, then
        /// EarliestAuthorizedSampleDate with a new set per call).
        var operations: [Figures]
    }

    /// Registers the app (read access to steps), then measures each of `operations` in turn.
    func run() async throws -> Result {
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let token = try await ScenarioApps(socketPath: socketPath, admin: admin)
            .prepare("scenarios.latency", grant: .readLimited(fromMicros: 1_700_000_000_000_000))
        let store = try await HealthStore.connect(socketPath: socketPath, appID: "scenarios.latency", appToken: token)
        defer { store.close() }
        // Arguments are made once, outside the timed calls, as an app would hold them (the
        // reference's example keeps its `Set` of types in a constant): the ping's payload, EASD's set.
        let payload = [UInt8](repeating: 0x5A, count: payloadBytes)
        let types: Set<ObjectType> = [.stepCount]
        var figures: [Figures] = []
        for operation in operations {
            let call: () async throws -> Void = switch operation {
            case .ping, .pingOnExecutor: { _ = try await store.ping(payload: payload) }
            case .easd, .easdOnExecutor: { _ = try await store.earliestAuthorizedSampleDate(for: types) }
            case .easdNewSetOnExecutor: { _ = try await store.earliestAuthorizedSampleDate(for: [.stepCount]) }
            case .pingConcurrent: { _ = try await store.ping(payload: payload) }
            }
            if operation == .pingConcurrent {
                figures.append(try await measureConcurrent(operation.label, tasks: Operation.concurrentTasks) { _ = try await store.ping(payload: payload) })
            } else if operation.onExecutor {
                // From a task that prefers the store's own executor (its connection thread).
                figures.append(try await withTaskExecutorPreference(store.executor) { try await measure(operation.label, call) })
            } else {
                figures.append(try await measure(operation.label, call))
            }
        }
        return Result(operations: figures)
    }

    /// Runs `call` from `tasks` tasks at once, each `warmupCalls / tasks` times, then `calls / tasks`
    /// times one after another, timing each; throughput is over all of them.
    private func measureConcurrent(_ operation: String, tasks: Int, _ call: @escaping @Sendable () async throws -> Void) async throws -> Figures {
        let perTask = max(1, calls / tasks)
        let warmup = warmupCalls / tasks
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks { group.addTask { for _ in 0..<warmup { try await call() } } }
            try await group.waitForAll()
        }
        let cpuBefore = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let clientBefore = ProcessMemory.cpuMicros(pid: getpid()) ?? 0
        let began = ContinuousClock.now
        var latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var own: [Double] = []
                    own.reserveCapacity(perTask)
                    for _ in 0..<perTask {
                        let start = ContinuousClock.now
                        try await call()
                        let elapsed = ContinuousClock.now - start
                        own.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
                    }
                    return own
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        let total = ContinuousClock.now - began
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let cpuAfter = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let clientAfter = ProcessMemory.cpuMicros(pid: getpid()) ?? 0
        let count = latencies.count
        latencies.sort()
        let figures = Figures(
            operation: operation, calls: count, p50Micros: latencies[count / 2],
            p99Micros: latencies[min(count - 1, count * 99 / 100)],
            callsPerSecond: Double(count) / max(seconds, 1e-9),
            brokerCPUMicrosPerCall: Double(cpuAfter - cpuBefore) / Double(max(count, 1)),
            clientCPUMicrosPerCall: Double(clientAfter - clientBefore) / Double(max(count, 1)))
        log("latency: \(operation): p50 \(figures.p50Micros) µs, \(Int(figures.callsPerSecond)) calls/s over \(count) calls")
        return figures
    }

    /// Runs `call` `warmupCalls` times, then `calls` times one after another, timing each.
    private func measure(_ operation: String, _ call: () async throws -> Void) async throws -> Figures {
        for _ in 0..<warmupCalls { try await call() }
        var latencies: [Double] = []
        latencies.reserveCapacity(calls)
        let cpuBefore = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let clientBefore = ProcessMemory.cpuMicros(pid: getpid()) ?? 0
        let began = ContinuousClock.now
        for _ in 0..<calls {
            let start = ContinuousClock.now
            try await call()
            let elapsed = ContinuousClock.now - start
            latencies.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        let total = ContinuousClock.now - began
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let cpuAfter = ProcessMemory.cpuMicros(pid: brokerPID) ?? 0
        let clientAfter = ProcessMemory.cpuMicros(pid: getpid()) ?? 0
        latencies.sort()
        let figures = Figures(
            operation: operation, calls: calls, p50Micros: latencies[latencies.count / 2],
            p99Micros: latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
            callsPerSecond: Double(calls) / max(seconds, 1e-9),
            brokerCPUMicrosPerCall: Double(cpuAfter - cpuBefore) / Double(max(calls, 1)),
            clientCPUMicrosPerCall: Double(clientAfter - clientBefore) / Double(max(calls, 1)))
        log("latency: \(operation): p50 \(figures.p50Micros) µs, p99 \(figures.p99Micros) µs over \(calls) calls")
        return figures
    }
}
