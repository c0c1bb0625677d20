import CommandLineSupport
import Foundation

extension LatencyScenario {
    /// One call the latency scenario can measure, and where its caller runs.
    enum Operation: String, CaseIterable, Sendable {
        /// Ping from a task on the global executor.
        case ping
        /// EarliestAuthorizedSampleDate from a task on the global executor.
        case easd
        /// Ping from a task that prefers `store.executor`.
        case pingOnExecutor = "ping-executor"
        /// EarliestAuthorizedSampleDate from a task that prefers `store.executor`.
        case easdOnExecutor = "easd-executor"
        /// As `easdOnExecutor`, but each call builds its `Set` of types anew (the caller's work inside
        /// the timed call, as this scenario measured EASD before the fifth session).
        case easdNewSetOnExecutor = "easd-new-set-executor"
        /// Pings from `concurrentTasks` tasks on the global executor at once, each awaiting its call
        /// before the next (many calls in flight: throughput and client CPU per call). Not in the
        /// default list.
        case pingConcurrent = "ping-16"

        /// Tasks in flight for `pingConcurrent`.
        static let concurrentTasks = 16

        /// The operations measured when none are named.
        static var standard: [Operation] { allCases.filter { $0 != .pingConcurrent } }

        /// True when the caller prefers the store's executor.
        var onExecutor: Bool { self == .pingOnExecutor || self == .easdOnExecutor || self == .easdNewSetOnExecutor }

        /// The name the results and the report use ("ping", "easd on store.executor", …).
        var label: String {
            switch self {
            case .ping: "ping"
            case .easd: "easd"
            case .pingOnExecutor: "ping on store.executor"
            case .easdOnExecutor: "easd on store.executor"
            case .easdNewSetOnExecutor: "easd (a new set per call) on store.executor"
            case .pingConcurrent: "ping with \(Self.concurrentTasks) in flight"
            }
        }

        /// The operations a comma-separated `--operations` value names; the standard ones, in order, when nil.
        static func list(_ text: String?) throws -> [Operation] {
            guard let text else { return standard }
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let operations = try names.map { name in
                guard let operation = Operation(rawValue: name) else {
                    throw ArgumentError(.invalidValue, "--operations: unknown operation '\(name)' (\(allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return operation
            }
            guard !operations.isEmpty else { throw ArgumentError(.invalidValue, "--operations: name at least one operation") }
            return operations
        }
    }
}
