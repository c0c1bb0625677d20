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
            }
        }

        /// The operations a comma-separated `--operations` value names; all of them, in order, when nil.
        static func list(_ text: String?) throws -> [Operation] {
            guard let text else { return allCases }
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
