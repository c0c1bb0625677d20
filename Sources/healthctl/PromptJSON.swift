import BrokerModel

/// An open prompt as a JSON object (in `healthctl --json status`): instants as ISO-8601 plus `_us`,
/// `deadline` null when the app set none.
struct PromptJSON: Encodable, Equatable {
    /// The prompt.
    var prompt: Prompt

    /// Wraps `prompt`.
    init(_ prompt: Prompt) {
        self.prompt = prompt
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case promptID = "prompt_id", appID = "app_id", appName = "app_name", shareTypes = "share_types", readTypes = "read_types"
        case created, createdMicros = "created_us", deadline, deadlineMicros = "deadline_us"
    }

    /// Writes every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(prompt.id, forKey: .promptID)
        try container.encode(prompt.appID, forKey: .appID)
        try container.encode(prompt.appName, forKey: .appName)
        try container.encode(prompt.shareTypes.map(\.identifier), forKey: .shareTypes)
        try container.encode(prompt.readTypes.map(\.identifier), forKey: .readTypes)
        try container.encode(UTCTimestamp.string(micros: prompt.createdMicros, fractional: true), forKey: .created)
        try container.encode(prompt.createdMicros, forKey: .createdMicros)
        let deadline = prompt.deadlineMicros > 0 ? prompt.deadlineMicros : nil
        try container.encode(deadline.map { UTCTimestamp.string(micros: $0, fractional: true) }, forKey: .deadline)
        try container.encode(deadline, forKey: .deadlineMicros)
    }
}
