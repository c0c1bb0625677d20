import BrokerModel

/// One app as a JSON object: its fields, instants as ISO-8601 plus `_us`, `uid` null when not pinned.
struct AppJSON: Encodable, Equatable {
    /// The app.
    var app: AppInfo
    /// The token, only right after it was issued.
    var token: String?

    /// Wraps `app`, with `token` when one was just issued.
    init(_ app: AppInfo, token: String? = nil) {
        self.app = app
        self.token = token
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", name, readUsage = "read_usage", shareUsage = "share_usage", uid
        case created, createdMicros = "created_us", tokenRotated = "token_rotated"
        case tokenRotatedMicros = "token_rotated_us", token
    }

    /// Writes every key, `uid` as null when unpinned; `token` only when present.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(app.appID, forKey: .appID)
        try container.encode(app.name, forKey: .name)
        try container.encode(app.readUsage, forKey: .readUsage)
        try container.encode(app.shareUsage, forKey: .shareUsage)
        try container.encode(app.pinnedUID, forKey: .uid)
        try container.encode(UTCTimestamp.string(micros: app.createdMicros, fractional: true), forKey: .created)
        try container.encode(app.createdMicros, forKey: .createdMicros)
        try container.encode(UTCTimestamp.string(micros: app.tokenRotatedMicros, fractional: true), forKey: .tokenRotated)
        try container.encode(app.tokenRotatedMicros, forKey: .tokenRotatedMicros)
        try container.encodeIfPresent(token, forKey: .token)
    }
}
