// The field conversions of protobuf's canonical JSON mapping, which the generated
// `Proto+JSON.pb.swift` calls for every field: 64-bit integers as strings, 32-bit ones and doubles
// as numbers, bytes as base64, enums by name.

extension ProtoJSON {
    // MARK: Writing

    /// A 64-bit integer: a string, since JSON numbers lose digits past 2^53 in most readers.
    static func int64(_ value: Int64) -> ProtoJSON { .string(String(value)) }
    /// An unsigned 64-bit integer: a string, as `int64(_:)`.
    static func uint64(_ value: UInt64) -> ProtoJSON { .string(String(value)) }
    /// A 32-bit integer: a number.
    static func int32(_ value: Int32) -> ProtoJSON { .number(String(value)) }
    /// An unsigned 32-bit integer: a number.
    static func uint32(_ value: UInt32) -> ProtoJSON { .number(String(value)) }

    /// A double: a number (integral values without a fraction), or "NaN", "Infinity", "-Infinity".
    static func double(_ value: Double) -> ProtoJSON {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }

    /// Bytes: standard base64 with padding.
    static func bytes(_ value: [UInt8]) -> ProtoJSON { .string(Base64.encode(value)) }

    /// An enum value: its name in the .proto, or its number when this build does not name it.
    static func enumValue(_ number: Int32, name: String?) -> ProtoJSON {
        if let name { return .string(name) }
        return .number(String(number))
    }

    // MARK: Reading

    /// The members of an object; null reads as no members (protobuf: null is the default).
    func members(at path: String) throws(ProtoJSONError) -> [Member] {
        switch self {
        case .object(let members): return members
        default: throw ProtoJSONError(path, "expected an object, found \(kindName)")
        }
    }

    /// The elements of an array.
    func elements(at path: String) throws(ProtoJSONError) -> [ProtoJSON] {
        guard case .array(let elements) = self else { throw ProtoJSONError(path, "expected an array, found \(kindName)") }
        return elements
    }

    /// A string.
    func string(at path: String) throws(ProtoJSONError) -> String {
        guard case .string(let text) = self else { throw ProtoJSONError(path, "expected a string, found \(kindName)") }
        return text
    }

    /// A boolean.
    func bool(at path: String) throws(ProtoJSONError) -> Bool {
        guard case .bool(let value) = self else { throw ProtoJSONError(path, "expected true or false, found \(kindName)") }
        return value
    }

    /// Bytes given as base64 (standard or URL-safe, padding optional).
    func bytes(at path: String) throws(ProtoJSONError) -> [UInt8] {
        guard case .string(let text) = self else { throw ProtoJSONError(path, "expected a base64 string, found \(kindName)") }
        guard let bytes = Base64.decode(text) else { throw ProtoJSONError(path, "invalid base64") }
        return bytes
    }

    /// A double: a number, or a string holding one, "NaN", "Infinity" or "-Infinity".
    func double(at path: String) throws(ProtoJSONError) -> Double {
        switch self {
        case .number(let text):
            if let value = Double(text), value.isFinite { return value }
            throw ProtoJSONError(path, "number \(text) is out of range for a double")
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            if ProtoJSON.isNumberText(text), let value = Double(text), value.isFinite { return value }
            throw ProtoJSONError(path, "expected a number, found the string \"\(text)\"")
        default: throw ProtoJSONError(path, "expected a number, found \(kindName)")
        }
    }

    /// An integer of type `T`: a number or a string holding one (protobuf takes both for every
    /// integer type); an exponent or fraction is fine as long as the value is integral.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at path: String) throws(ProtoJSONError) -> T {
        let text: String
        switch self {
        case .number(let number): text = number
        case .string(let string) where ProtoJSON.isNumberText(string): text = string
        case .string(let string): throw ProtoJSONError(path, "expected an integer, found the string \"\(string)\"")
        default: throw ProtoJSONError(path, "expected an integer, found \(kindName)")
        }
        if let value = T(text) { return value }
        let wide = Double(text)
        if let wide, wide == wide.rounded(), let value = T(exactly: wide) { return value }
        if wide != nil, wide != wide?.rounded() { throw ProtoJSONError(path, "\(text) is not an integer") }
        throw ProtoJSONError(path, "\(text) is out of range for \(T.self)")
    }

    /// An enum number: a name `number(forName:)` knows, or an integer.
    func enumNumber(at path: String, type: String, number: (String) -> Int32?) throws(ProtoJSONError) -> Int32 {
        switch self {
        case .string(let name):
            guard let value = number(name) else { throw ProtoJSONError(path, "\"\(name)\" is not a value of enum \(type)") }
            return value
        case .number: return try integer(Int32.self, at: path)
        default: throw ProtoJSONError(path, "expected an enum \(type) name or number, found \(kindName)")
        }
    }

    /// True when `text` is a JSON number (what a number given as a string must hold).
    static func isNumberText(_ text: String) -> Bool {
        guard case .number? = try? ProtoJSON.parse(text) else { return false }
        return !text.isEmpty && text.first != " " && text.last != " "
    }
}
