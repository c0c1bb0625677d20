import BrokerModel
import HealthBrokerProto

// Repeated fields in both directions: lists of type identifiers and other strings (repeated string)
// and lists of sub-messages, built in scoped scratch buffers as AppInfo lists are.
extension WireCodec {
    /// A C `char**` array: a repeated string field.
    typealias CStringArray = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    /// Runs `body` with a text buffer of `textBytes` bytes (as a writer) and an array of
    /// `pointerCount` string pointers, both scoped: valid only inside `body`.
    @inline(__always)
    static func withCText<R>(
        textBytes: Int, pointerCount: Int, _ body: (inout CStringWriter, CStringArray) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(textBytes, 1)) { text in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: max(pointerCount, 1)) {
                pointers in
                var writer = CStringWriter(text)
                return body(&writer, pointers.baseAddress.unsafelyUnwrapped)
            }
        }
    }

    /// Runs `body` with `types` as a C string array and its count, valid only inside `body`.
    @inline(__always)
    static func withCTypes<R>(_ types: [ObjectType], _ body: (CStringArray, Int) -> R) -> R {
        withCText(textBytes: CStringWriter.byteCount(of: types), pointerCount: types.count) { writer, pointers in
            writer.write(types, to: pointers)
            return body(pointers, types.count)
        }
    }

    /// Runs `body` with two type lists as C string arrays and their counts (one scratch buffer for
    /// both), valid only inside `body`.
    @inline(__always)
    static func withCTypes<R>(
        _ first: [ObjectType], _ second: [ObjectType], _ body: (CStringArray, Int, CStringArray, Int) -> R
    ) -> R {
        withCText(
            textBytes: CStringWriter.byteCount(of: first) + CStringWriter.byteCount(of: second),
            pointerCount: first.count + second.count
        ) { writer, pointers in
            writer.write(first, to: pointers)
            writer.write(second, to: pointers + first.count)
            return body(pointers, first.count, pointers + first.count, second.count)
        }
    }

    /// The types named by an unpacked repeated string field; throws on a NULL element.
    static func objectTypes(
        _ strings: CStringArray?, count: Int, in typeName: StaticString
    ) throws(BrokerError) -> [ObjectType] {
        guard count > 0 else { return [] }
        guard let strings else { throw undecodable(typeName) }
        var result: [ObjectType] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let identifier = strings[index] else { throw undecodable(typeName) }
            result.append(objectType(identifier))
        }
        return result
    }

    /// The strings of an unpacked repeated string field; throws on a NULL element.
    static func strings(_ list: CStringArray?, count: Int, in typeName: StaticString) throws(BrokerError) -> [String] {
        guard count > 0 else { return [] }
        guard let list else { throw undecodable(typeName) }
        var result: [String] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let element = list[index] else { throw undecodable(typeName) }
            result.append(string(element))
        }
        return result
    }

    /// Runs `body` with C forms of `elements` and an array of pointers to them, valid only inside `body`.
    ///
    /// `textBytes` sizes an element's strings (see `CStringWriter.byteCount(of:)`); `initialize` is the
    /// message's generated `…__init`; `fill` copies an element's fields in, writing its strings with
    /// the writer. Strings, structs and pointers live in three scoped scratch buffers.
    @inline(__always)
    static func withCMessages<Element, Message, R>(
        _ elements: some Collection<Element>,
        textBytes: (Element) -> Int,
        initialize: (UnsafeMutablePointer<Message>) -> Void,
        fill: (Element, UnsafeMutablePointer<Message>, inout CStringWriter) -> Void,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<Message>?>, Int) -> R
    ) -> R {
        let count = elements.count
        var totalTextBytes = 0
        for element in elements { totalTextBytes += textBytes(element) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(totalTextBytes, 1)) { text in
            withUnsafeTemporaryAllocation(of: Message.self, capacity: max(count, 1)) { messages in
                withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Message>?.self, capacity: max(count, 1)) {
                    pointers in
                    let first = messages.baseAddress.unsafelyUnwrapped
                    var writer = CStringWriter(text)
                    var index = 0
                    for element in elements {
                        let message = first + index
                        // The generated init assigns the whole (trivial) struct: it initializes the memory.
                        initialize(message)
                        fill(element, message, &writer)
                        pointers[index] = message
                        index += 1
                    }
                    defer { first.deinitialize(count: index) }
                    return body(pointers.baseAddress.unsafelyUnwrapped, index)
                }
            }
        }
    }

    /// The Swift forms of an unpacked repeated message field; throws on a NULL element.
    @inline(__always)
    static func decodedList<Message, Element>(
        _ list: UnsafeMutablePointer<UnsafeMutablePointer<Message>?>?, count: Int, in typeName: StaticString,
        _ transform: (UnsafePointer<Message>) -> Element
    ) throws(BrokerError) -> [Element] {
        guard count > 0 else { return [] }
        guard let list else { throw undecodable(typeName) }
        var result: [Element] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let element = list[index] else { throw undecodable(typeName) }
            result.append(transform(element))
        }
        return result
    }
}

extension CStringWriter {
    /// The bytes the identifiers of `types` take in the buffer, terminators included.
    static func byteCount(of types: [ObjectType]) -> Int {
        var total = 0
        for type in types { total += byteCount(of: type.identifier) }
        return total
    }

    /// Writes the identifiers of `types` and stores where each starts in `pointers[0..<types.count]`.
    mutating func write(_ types: [ObjectType], to pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        var index = 0
        for type in types {
            pointers[index] = write(type.identifier)
            index += 1
        }
    }

    /// The bytes `strings` take in the buffer, terminators included.
    static func byteCount(of strings: [String]) -> Int {
        var total = 0
        for string in strings { total += byteCount(of: string) }
        return total
    }

    /// Writes `strings` and stores where each starts in `pointers[0..<strings.count]`.
    mutating func write(_ strings: [String], to pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        var index = 0
        for string in strings {
            pointers[index] = write(string)
            index += 1
        }
    }
}
