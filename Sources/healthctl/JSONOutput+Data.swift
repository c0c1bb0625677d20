import BrokerModel

extension JSONOutput {
    /// The access log as an array of objects (`[]` when empty).
    static func accessLog(_ entries: [AccessLogEntry]) -> String {
        entries.isEmpty ? "[]" : encode(entries.map(AccessLogJSON.init))
    }
}
