/// One message of the .proto: its fields in declaration order and its comment (`ProtoDescriptors`).
public struct ProtoMessageDescriptor: Hashable, Sendable {
    /// The message's name (`AdminListAppsRequest`).
    public let name: String
    /// The fields in declaration order.
    public let fields: [ProtoFieldDescriptor]
    /// The message's comment in the .proto, one line each.
    public let doc: [String]

    /// A message descriptor; generated code makes them.
    public init(name: String, fields: [ProtoFieldDescriptor], doc: [String]) {
        self.name = name
        self.fields = fields
        self.doc = doc
    }
}
