import BrokerModel
import BrokerPolicy
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl stats TYPE [--interval I] [--from DATE] [--to DATE] [--tz ZONE] [--unit U]`: the
/// person's own statistics of a type over every app's samples (AdminStatistics).
enum StatsCommand {
    /// Asks the broker and prints the buckets as a table or a JSON object.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let name = command.commandName
        let type = try TypeArgument.resolve(command.positional("TYPE") ?? "", command: name)
        guard let descriptor = TypeCatalogue.descriptor(for: type), descriptor.kind == .quantity else {
            throw ArgumentError(.invalidValue, "statistics need a quantity type; \(TypeArgument.alias(of: type)) is not one", command: name)
        }
        let intervalText = command.string("interval") ?? "none"
        guard let interval = interval(named: intervalText) else {
            throw ArgumentError(.invalidValue, "invalid value '\(intervalText)' for '--interval': expected none, hour, day, week or month", command: name)
        }
        let zoneName = command.string("tz") ?? localZoneName()
        guard let zone = TimeZone(identifier: zoneName) else {
            throw ArgumentError(.invalidValue, "invalid value '\(zoneName)' for '--tz': expected an IANA time zone such as Europe/Berlin", command: name)
        }
        let expected = "YYYY-MM-DD or an ISO-8601 instant (YYYY-MM-DDTHH:MM:SSZ)"
        let from = try command.value("from", expected: expected) { instant($0, in: zone) }
        let to = try command.value("to", expected: expected) { instant($0, in: zone) }
        let options: StatisticsOptions = descriptor.aggregation == .cumulative ? .sum : [.average, .minimum, .maximum]
        // Buckets align to the start (a local midnight for a date), else to a local midnight.
        let anchor = from ?? midnight(year: 2000, month: 1, day: 1, in: zone) ?? 0
        let query = StatisticsQuery(
            type: type, predicate: SamplePredicate(startMicros: from, endMicros: to), options: options,
            interval: interval, anchorMicros: anchor, timeZone: zoneName == "UTC" ? "" : zoneName,
            unit: command.string("unit") ?? "")
        let result = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.statistics(query)
        }
        Console.output(context.json
            ? JSONOutput.statistics(result, type: type)
            : TextOutput.statisticsTable(result, type: type, options: options, zone: zone))
    }

    /// The interval named `text`.
    static func interval(named text: String) -> StatisticsInterval? {
        switch text.lowercased() {
        case "none", "": StatisticsInterval.none  // spelled out: a bare .none here is Optional.none
        case "hour": .hour
        case "day": .day
        case "week": .week
        case "month": .month
        default: nil
        }
    }

    /// The local zone's IANA name (TZ, else the system's), "UTC" when it has none.
    static func localZoneName() -> String {
        let identifier = TimeZone.current.identifier
        return identifier.isEmpty || identifier == "GMT" ? "UTC" : identifier
    }

    /// `YYYY-MM-DD` as that day's midnight in `zone`, or an ISO-8601 instant.
    static func instant(_ text: String, in zone: TimeZone) -> Int64? {
        if text.count == 10, UTCTimestamp.micros(fromDate: text) != nil {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return midnight(year: parts[0], month: parts[1], day: parts[2], in: zone)
        }
        return ISODate.parse(text)
    }

    /// The start of a calendar day in `zone`, in µs since the epoch.
    static func midnight(year: Int, month: Int, day: Int, in zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        return Int64((calendar.startOfDay(for: date).timeIntervalSince1970 * 1_000_000).rounded())
    }
}
