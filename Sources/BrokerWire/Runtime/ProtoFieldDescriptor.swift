/// One field of a message in the .proto, for `healthctl describe` (`ProtoDescriptors`).
public struct ProtoFieldDescriptor: Hashable, Sendable {
    /// What a field's type names.
    public enum Kind: Hashable, Sendable {
        /// A scalar (`int64`, `string`, `bytes`, …).
        case scalar
        /// An enum of the .proto.
        case enumeration
        /// A message of the .proto.
        case message
    }

    /// The name in the .proto (`call_id`).
    public let name: String
    /// The JSON name (`callId`).
    public let jsonName: String
    /// The field number.
    public let number: Int
    /// The type as the .proto writes it (`uint64`, `StatusCode`, `HelloRequest`).
    public let type: String
    /// What `type` names.
    public let kind: Kind
    /// True for a `repeated` field.
    public let isRepeated: Bool
    /// The oneof the field belongs to, if any.
    public let oneof: String?
    /// The field's comment in the .proto, one line each (empty when it has none).
    public let doc: [String]

    /// A field descriptor; generated code makes them.
    public init(name: String, jsonName: String, number: Int, type: String, kind: Kind, isRepeated: Bool, oneof: String?, doc: [String]) {
        self.name = name
        self.jsonName = jsonName
        self.number = number
        self.type = type
        self.kind = kind
        self.isRepeated = isRepeated
        self.oneof = oneof
        self.doc = doc
    }
}
