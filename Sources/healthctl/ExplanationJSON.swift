import BrokerModel

/// `healthctl explain --json`: the explanation text, the grant (null when never asked) and the dates that follow from it.
struct ExplanationJSON: Encodable, Equatable {
    /// The app asked about.
    var appID: String
    /// The type asked about.
    var type: ObjectType
    /// The broker's answer.
    var explanation: Explanation

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", type, everAsked = "ever_asked", grant, text = "explanation"
        case earliestPermitted = "earliest_permitted", earliestPermittedMicros = "earliest_permitted_us"
        case readsFrom = "reads_from", readsFromMicros = "reads_from_us"
    }

    /// Writes every key; `grant` and `reads_from*` are null when they do not apply.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appID, forKey: .appID)
        try container.encode(type.identifier, forKey: .type)
        try container.encode(explanation.grant != nil, forKey: .everAsked)
        try container.encode(explanation.grant.map(GrantJSON.init), forKey: .grant)
        try container.encode(explanation.text, forKey: .text)
        try container.encode(UTCTimestamp.string(micros: explanation.earliestPermittedMicros, fractional: true), forKey: .earliestPermitted)
        try container.encode(explanation.earliestPermittedMicros, forKey: .earliestPermittedMicros)
        let readsFrom = explanation.effectiveReadFromMicros
        try container.encode(readsFrom.map { UTCTimestamp.string(micros: $0, fractional: true) }, forKey: .readsFrom)
        try container.encode(readsFrom, forKey: .readsFromMicros)
    }
}
