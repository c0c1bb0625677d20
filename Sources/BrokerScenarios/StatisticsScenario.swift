import Foundation
import HealthBrokerClient

/// Times statistics calls over a long history (issue 18 item 6): steps per day, week, month and
/// hour, heart rate per day, as an app with full read access, and steps per day as a read-denied
/// app (its own samples only). The store already holds the history (`healthctl demo-data`, two
/// sources and the denied app's own); this only asks. Each call is made once untimed, then --runs
/// times; median and best in ms.
struct StatisticsScenario {
    /// One timed call.
    struct Figure: Codable {
        let query: String
        let buckets: Int
        /// The buckets' sums (steps) or averages (heart rate) added up: the two modes' answers must agree.
        let total: Double
        let medianMs: Double
        let bestMs: Double
    }

    let socketPath: String
    let adminSocketPath: String
    /// The history: the `days` days before today's UTC midnight.
    let days: Int
    let runs: Int
    let timeZone: String
    /// The app that reads everything, and the read-denied one (each must be registered and decided by the daemon's consent policy).
    let readerID: String
    let deniedID: String
    /// Only these queries (empty: all).
    let only: Set<String>
    let label: String
    let log: @Sendable (String) -> Void

    func run() async throws -> [Figure] {
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let now = Int64(Date().timeIntervalSince1970)
        let end = Date(timeIntervalSince1970: TimeInterval(now - now % 86_400))
        let start = end.addingTimeInterval(-Double(days) * 86_400)
        let predicate = SamplePredicate(start: start, end: end)
        var figures: [Figure] = []
        for (appID, kinds) in [(readerID, ["steps-day", "steps-week", "steps-month", "steps-hour", "heart-day"]), (deniedID, ["denied-steps-day"])] {
            let kinds = kinds.filter { only.isEmpty || only.contains($0) }
            guard !kinds.isEmpty else { continue }
            let credentials = try await ScenarioApps.registerAfresh(appID, admin: admin, readUsage: "Reads statistics to measure the broker.", shareUsage: "Writes its own steps.")
            let store = try await HealthStore.connect(socketPath: socketPath, appID: appID, appToken: credentials.token)
            defer { store.close() }
            try await store.requestAuthorization(toShare: [.stepCount, .heartRate], read: [.stepCount, .heartRate], timeout: ScenarioApps.authorizationTimeout)
            for kind in kinds {
                let (type, options, interval): (ObjectType, StatisticsOptions, StatisticsInterval) = switch kind {
                case "steps-week": (.stepCount, .sum, .week)
                case "steps-month": (.stepCount, .sum, .month)
                case "steps-hour": (.stepCount, .sum, .hour)
                case "heart-day": (.heartRate, [.average, .minimum, .maximum], .day)
                default: (.stepCount, .sum, .day)
                }
                let query = StatisticsQuery(type: type, predicate: predicate, options: options, interval: interval, anchor: start, timeZone: timeZone)
                var times: [Double] = []
                var buckets = 0
                var total = 0.0
                for run in 0...runs {
                    let clock = ContinuousClock.now
                    let result = try await store.statistics(query)
                    let elapsed = ContinuousClock.now - clock
                    buckets = result.buckets.count
                    total = result.buckets.reduce(0) { $0 + ($1.sum ?? $1.average ?? 0) }
                    if run > 0 { times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15) }
                }
                times.sort()
                let figure = Figure(query: kind, buckets: buckets, total: total, medianMs: times[times.count / 2], bestMs: times[0])
                log("\(label) \(kind): \(buckets) buckets, median \(String(format: "%.1f", figure.medianMs)) ms")
                figures.append(figure)
            }
        }
        return figures
    }

    /// One line per query.
    static func lines(_ figures: [Figure], label: String) -> String {
        figures.map { figure in
            "statistics label=\(label) query=\(figure.query) buckets=\(figure.buckets) total=\(String(format: "%.3f", figure.total)) median_ms=\(String(format: "%.1f", figure.medianMs)) best_ms=\(String(format: "%.1f", figure.bestMs))"
        }.joined(separator: "\n")
    }
}
