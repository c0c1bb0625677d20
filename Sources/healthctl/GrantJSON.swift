import BrokerModel

/// One grant as a JSON object: share/read as words (null when never asked), instants as ISO-8601 plus `_us`.
struct GrantJSON: Encodable, Equatable {
    /// The grant.
    var grant: Grant
    /// The app it belongs to, written as `app_id` when set (lists across apps, `grants set`).
    var appID: String?

    /// Wraps `grant` (of the one app the output is about).
    init(_ grant: Grant) {
        self.init(grant, appID: nil)
    }

    /// Wraps `grant` of `appID`, for output that spans apps.
    init(_ grant: Grant, appID: String?) {
        self.grant = grant
        self.appID = appID
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", type, alias, share, read, limitedFrom = "limited_from", limitedFromMicros = "limited_from_us"
        case decided, decidedMicros = "decided_us", decidedBy = "decided_by"
    }

    /// Writes every key; `share`, `read` and `limited_from*` are null when they do not apply.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(appID, forKey: .appID)
        try container.encode(grant.type.identifier, forKey: .type)
        try container.encode(TypeArgument.alias(of: grant.type), forKey: .alias)
        try container.encode(grant.share.map { DecisionText.share($0) }, forKey: .share)
        try container.encode(grant.read.map { DecisionText.read($0) }, forKey: .read)
        var limitedFrom: Int64?
        if case .limited(let from)? = grant.read { limitedFrom = from }
        try container.encode(limitedFrom.map { UTCTimestamp.string(micros: $0, fractional: true) }, forKey: .limitedFrom)
        try container.encode(limitedFrom, forKey: .limitedFromMicros)
        try container.encode(UTCTimestamp.string(micros: grant.decidedMicros, fractional: true), forKey: .decided)
        try container.encode(grant.decidedMicros, forKey: .decidedMicros)
        try container.encode(grant.decidedBy, forKey: .decidedBy)
    }
}
