/// A JSON value as protobuf's canonical JSON mapping uses it: members keep their order (the
/// generated code writes fields in declaration order, as protoc does) and numbers keep their text,
/// so a 64-bit integer given as a number loses no digits.
public indirect enum ProtoJSON: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written (`-12`, `0.5`, `1e3`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([ProtoJSON])
    /// An object: its members in order.
    case object([Member])

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: ProtoJSON

        /// The member `key: value`.
        public init(_ key: String, _ value: ProtoJSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value's kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member named `key`, if the value is an object that has one.
    public subscript(key: String) -> ProtoJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
