/// A generated message that converts to and from protobuf's canonical JSON mapping
/// (`Proto+JSON.pb.swift`).
public protocol ProtoJSONMessage {
    /// The message as JSON: fields by JSON name in declaration order, default values left out.
    func json() -> ProtoJSON
    /// Reads the message from `json`; `path` names the value in errors (`$` for the whole text).
    /// Both the JSON name and the .proto name of a field are accepted; an unknown field, a value of
    /// the wrong type or a second case of a oneof is an error naming its path.
    init(json: ProtoJSON, path: String) throws(ProtoJSONError)
}

extension ProtoJSONMessage {
    /// Reads the message from a JSON text.
    public init(jsonText: String) throws(ProtoJSONError) {
        try self.init(json: ProtoJSON.parse(jsonText), path: "$")
    }

    /// The message as JSON text (see `ProtoJSON.text(pretty:)`).
    public func jsonText(pretty: Bool = true) -> String {
        json().text(pretty: pretty)
    }
}
