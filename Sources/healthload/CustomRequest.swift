import BrokerWire
import Foundation

/// The custom op's call, from `--request METHOD=JSON` (or `METHOD=@FILE`): any unary app method
/// and its request in protobuf's JSON mapping, read with the code generated from the .proto.
struct CustomRequest: Sendable {
    /// The method.
    let method: ProtoMethod
    /// Its request.
    let request: Proto.Call.Request

    /// Why a `--request` value cannot be used.
    struct Invalid: Error, CustomStringConvertible {
        /// The explanation.
        let description: String
    }

    /// Reads `METHOD=JSON` or `METHOD=@FILE`.
    init(parsing text: String) throws(Invalid) {
        guard let equals = text.firstIndex(of: "=") else {
            throw Invalid(description: "expected METHOD=JSON or METHOD=@FILE")
        }
        let name = String(text[..<equals])
        guard let method = ProtoMethod.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw Invalid(description: "no method \(name) (healthctl describe lists them)")
        }
        // A load call must be answered by the app session healthload opens: unary, on the app
        // socket, and not a second Hello.
        guard method.socket != .admin, !method.isServerStreaming, method != .hello else {
            throw Invalid(description: "\(method.name) is not a unary app method")
        }
        var json = String(text[text.index(after: equals)...])
        if json.hasPrefix("@") {
            let path = String(json.dropFirst())
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw Invalid(description: "cannot read \(path)")
            }
            json = String(decoding: contents, as: UTF8.self)
        }
        do {
            request = try method.request(json: try ProtoJSON.parse(json))
        } catch {
            throw Invalid(description: "\(method.name): \(error)")
        }
        self.method = method
    }
}
