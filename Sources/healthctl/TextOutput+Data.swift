import BrokerModel
import Foundation

extension TextOutput {
    /// The access log: WHEN (local time, or UTC), APP, CALL, OPERATION, TYPE (alias), SAMPLES; a friendly line when empty.
    static func accessLogTable(_ entries: [AccessLogEntry], appID: String? = nil, time: TimeText = .local) -> String {
        guard !entries.isEmpty else {
            return appID.map { "no access recorded for \($0)" } ?? "no access recorded yet"
        }
        let rows = entries.map { entry in
            [
                time.instant(entry.atMicros),
                entry.appID, entry.method.isEmpty ? "-" : entry.method, entry.operation,
                TypeArgument.alias(of: entry.type), String(entry.sampleCount),
            ]
        }
        return TableFormatter.render(
            header: ["WHEN \(time.headerSuffix)", "APP", "CALL", "OPERATION", "TYPE", "SAMPLES"], rows: rows)
    }
}

extension TextOutput {
    /// `healthctl stats`: START, END (in `zone`, named in the header), SAMPLES, then SUM or AVERAGE,
    /// MINIMUM, MAXIMUM in the result's unit.
    static func statisticsTable(_ result: StatisticsResult, type: ObjectType, options: StatisticsOptions, zone: TimeZone) -> String {
        let alias = TypeArgument.alias(of: type)
        guard !result.buckets.isEmpty else { return "no \(alias) samples in the range" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        // The zone is named once, in the header: Foundation on Linux spells most abbreviations as
        // offsets ("GMT+1"), which say less than "Europe/Berlin" (and calls UTC "GMT").
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let zoneName = ["GMT", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) ? "UTC" : zone.identifier
        func when(_ micros: Int64) -> String {
            formatter.string(from: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        }
        func number(_ value: Double?) -> String {
            guard let value else { return "-" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
        }
        let sums = options.contains(.sum)
        let rows = result.buckets.map { bucket in
            [when(bucket.startMicros), when(bucket.endMicros), String(bucket.sampleCount)]
                + (sums ? [number(bucket.sum)] : [number(bucket.average), number(bucket.minimum), number(bucket.maximum)])
        }
        let unit = result.unit.isEmpty ? "" : " (\(result.unit))"
        let header = ["START (\(zoneName))", "END", "SAMPLES"] + (sums ? ["SUM\(unit)"] : ["AVERAGE\(unit)", "MINIMUM", "MAXIMUM"])
        return TableFormatter.render(header: header, rows: rows)
    }
}
