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

        /// True when the caller prefers the store's executor.
        var onExecutor: Bool { self == .pingOnExecutor || self == .easdOnExecutor }

        /// The name the results and the report use ("ping", "easd on store.executor", …).
        var label: String {
            switch self {
            case .ping: "ping"
            case .easd: "easd"
            case .pingOnExecutor: "ping on store.executor"
            case .easdOnExecutor: "easd on store.executor"
            }
        }

        /// The operations a comma-separated `--operations` value names; all four, in order, when nil.
        static func list(_ text: String?) throws -> [Operation] {
            guard let text else { return allCases }
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let operations = try names.map { name in
                guard let operation = Operation(rawValue: name) else {
                    throw ArgumentError(.invalidValue, "--operations: unknown operation '\(name)' (ping, easd, ping-executor, easd-executor)")
                }
                return operation
            }
            guard !operations.isEmpty else { throw ArgumentError(.invalidValue, "--operations: name at least one operation") }
            return operations
        }
    }
}
