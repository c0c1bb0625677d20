/// A characteristic of the person (date of birth, biological sex, blood type) and its value, if any.
public struct CharacteristicValue: Sendable, Hashable {
    /// The characteristic type.
    public var type: ObjectType
    /// The value (e.g. "1990-04-01", "female", "A+"); nil when unset or not readable.
    public var value: String?

    /// Creates a value.
    public init(type: ObjectType, value: String?) {
        self.type = type
        self.value = value
    }
}
