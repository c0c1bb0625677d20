import BrokerModel

/// One access-log entry as a JSON object: the instant as ISO-8601 plus `at_us`, the type with its alias.
struct AccessLogJSON: Encodable, Equatable {
    /// The entry.
    var entry: AccessLogEntry

    /// Wraps `entry`.
    init(_ entry: AccessLogEntry) {
        self.entry = entry
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case at, atMicros = "at_us", appID = "app_id", operation, type, alias, sampleCount = "sample_count", method
    }

    /// Writes every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UTCTimestamp.string(micros: entry.atMicros, fractional: true), forKey: .at)
        try container.encode(entry.atMicros, forKey: .atMicros)
        try container.encode(entry.appID, forKey: .appID)
        try container.encode(entry.operation, forKey: .operation)
        try container.encode(entry.type.identifier, forKey: .type)
        try container.encode(TypeArgument.alias(of: entry.type), forKey: .alias)
        try container.encode(entry.sampleCount, forKey: .sampleCount)
        try container.encode(entry.method, forKey: .method)
    }
}
