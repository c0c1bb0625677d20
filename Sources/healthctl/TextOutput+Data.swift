import BrokerModel

extension TextOutput {
    /// The access log: WHEN (UTC), APP, OPERATION, TYPE (alias), SAMPLES; a friendly line when empty.
    static func accessLogTable(_ entries: [AccessLogEntry], appID: String? = nil) -> String {
        guard !entries.isEmpty else {
            return appID.map { "no access recorded for \($0)" } ?? "no access recorded yet"
        }
        let rows = entries.map { entry in
            [
                UTCTimestamp.string(micros: entry.atMicros), entry.appID, entry.operation,
                TypeArgument.alias(of: entry.type), String(entry.sampleCount),
            ]
        }
        return TableFormatter.render(header: ["WHEN (UTC)", "APP", "OPERATION", "TYPE", "SAMPLES"], rows: rows)
    }
}
