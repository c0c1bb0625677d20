/// The JSON answer to `characteristics set|clear`: the type and its new value (null when cleared).
struct CharacteristicJSON: Encodable, Equatable {
    /// The characteristic's identifier.
    var type: String
    /// The value now stored; nil when cleared.
    var value: String?

    /// The JSON keys.
    private enum CodingKeys: String, CodingKey {
        case type, value
    }

    /// Writes both keys, `value` as null when cleared.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(value, forKey: .value)
    }
}
