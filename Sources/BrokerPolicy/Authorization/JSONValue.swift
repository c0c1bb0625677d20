import BrokerModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed JSON value, for reading small configuration files such as consent policies.
enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    /// A number with no fraction that fits in Int64.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a UTF-8 JSON document; a failure carries the parser's reason.
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, ParseFailure> {
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
        } catch {
            return .failure(ParseFailure(reason: Self.reason(error)))
        }
    }

    /// Why a document did not parse.
    struct ParseFailure: Error, Sendable {
        var reason: String
    }

    /// Decodes whatever JSON value is there.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A short kind name for error messages: "a string", "an array", ….
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?:
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return context.debugDescription + underlying
        default:
            return "\(error)"
        }
    }
}
