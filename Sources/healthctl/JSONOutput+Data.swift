import BrokerModel

extension JSONOutput {
    /// The access log as an array of objects (`[]` when empty).
    static func accessLog(_ entries: [AccessLogEntry]) -> String {
        entries.isEmpty ? "[]" : encode(entries.map(AccessLogJSON.init))
    }
}

extension JSONOutput {
    /// `healthctl stats --json`: `{"type", "alias", "unit", "buckets": [...]}`, instants in UTC.
    static func statistics(_ result: StatisticsResult, type: ObjectType) -> String {
        encode(StatisticsJSON(type: type, result: result))
    }
}
