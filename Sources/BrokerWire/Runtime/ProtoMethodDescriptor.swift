/// One rpc of the .proto's services: what `healthctl describe` lists (`ProtoDescriptors`).
public struct ProtoMethodDescriptor: Hashable, Sendable {
    /// The method.
    public let method: ProtoMethod
    /// The service that declares it (`AdminService`).
    public let service: String
    /// The request message's name.
    public let request: String
    /// The response message's name (of each stream item, for a server stream).
    public let response: String
    /// The rpc's comment in the .proto, one line each.
    public let doc: [String]

    /// A method descriptor; generated code makes them.
    public init(method: ProtoMethod, service: String, request: String, response: String, doc: [String]) {
        self.method = method
        self.service = service
        self.request = request
        self.response = response
        self.doc = doc
    }
}
