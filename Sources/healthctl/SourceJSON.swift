import BrokerModel

/// One source (an app that asked, or has samples stored) as a JSON object; instants as ISO-8601
/// plus `_us` (null when the app never asked).
struct SourceJSON: Encodable, Equatable {
    /// The source.
    var source: Source

    /// Wraps `source`.
    init(_ source: Source) {
        self.source = source
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", name, firstRequest = "first_request", firstRequestMicros = "first_request_us"
        case lastRequest = "last_request", lastRequestMicros = "last_request_us", registered
        case sampleCount = "sample_count", everAsked = "ever_asked", types
    }

    /// Writes every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source.appID, forKey: .appID)
        try container.encode(source.appName, forKey: .name)
        if source.everAsked {
            try container.encode(UTCTimestamp.string(micros: source.firstRequestMicros, fractional: true), forKey: .firstRequest)
            try container.encode(source.firstRequestMicros, forKey: .firstRequestMicros)
            try container.encode(UTCTimestamp.string(micros: source.lastRequestMicros, fractional: true), forKey: .lastRequest)
            try container.encode(source.lastRequestMicros, forKey: .lastRequestMicros)
        } else {
            try container.encodeNil(forKey: .firstRequest)
            try container.encodeNil(forKey: .firstRequestMicros)
            try container.encodeNil(forKey: .lastRequest)
            try container.encodeNil(forKey: .lastRequestMicros)
        }
        try container.encode(source.isRegistered, forKey: .registered)
        try container.encode(source.sampleCount, forKey: .sampleCount)
        try container.encode(source.everAsked, forKey: .everAsked)
        // Type identifier → count; JSONEncoder sorts keys only when asked, so sort for stable output.
        var types = container.nestedContainer(keyedBy: TypeKey.self, forKey: .types)
        for (type, count) in source.sampleCounts.sorted(by: { $0.key.identifier < $1.key.identifier }) {
            try types.encode(count, forKey: TypeKey(stringValue: type.identifier))
        }
    }

    /// A type identifier as a JSON key.
    private struct TypeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
