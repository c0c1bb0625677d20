/// One enum of the .proto: its values' names and numbers (`ProtoDescriptors`).
public struct ProtoEnumDescriptor: Hashable, Sendable {
    /// One value of the enum.
    public struct Value: Hashable, Sendable {
        /// The name in the .proto (`STATUS_OK`), also its JSON form.
        public let name: String
        /// Its number.
        public let number: Int32
        /// The value's comment in the .proto, one line each.
        public let doc: [String]

        /// A value descriptor; generated code makes them.
        public init(name: String, number: Int32, doc: [String]) {
            self.name = name
            self.number = number
            self.doc = doc
        }
    }

    /// The enum's name (`StatusCode`).
    public let name: String
    /// Its values in declaration order.
    public let values: [Value]
    /// The enum's comment in the .proto, one line each.
    public let doc: [String]

    /// An enum descriptor; generated code makes them.
    public init(name: String, values: [Value], doc: [String]) {
        self.name = name
        self.values = values
        self.doc = doc
    }
}
