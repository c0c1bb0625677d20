import BrokerWire
import HealthBrokerClient

/// One operation's call, encoded once through the codec, then stamped with a call id per send.
///
/// `body` is the packed `Call` message without its `call_id` (a proto3 zero is not encoded, and any
/// encoded one is removed). A frame is the 5-byte header, `ClientFrame.call` (field 1) around
/// `call_id` (field 1) followed by the body: the same bytes the codec would write, at the cost of a
/// few varints and one copy. For saves, `counterOffsets` are where each sample's uuid ends in 12 hex
/// digits that are rewritten with a per-call counter, so every save writes new samples.
struct CallTemplate: Sendable {
    /// Hex digits of the per-call counter at the end of each templated uuid.
    static let counterDigits = 12
    /// Lower-case hex digits by value.
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The operation this template sends.
    let operation: LoadOperation
    /// The packed Call without call_id.
    private(set) var body: [UInt8]
    /// Where the counter digits of each sample's uuid start in `body`.
    let counterOffsets: [Int]

    /// Encodes `request` (with `timeoutMicros` and `initialCredit`) once. Each of `uuids` must appear
    /// in the encoding and end in `counterDigits` hex digits, which `appendFrame` overwrites.
    init(operation: LoadOperation, request: Request, timeoutMicros: Int64 = 0, initialCredit: UInt32 = 0, uuids: [String] = []) throws(LoadFailure) {
        self.operation = operation
        var frame: [UInt8] = []
        WireCodec.append(.call(Call(callID: 0, timeoutMicros: timeoutMicros, initialCredit: initialCredit, request: request)), to: &frame)
        guard let body = Self.callBodyWithoutID(frame: frame) else {
            throw LoadFailure("could not take apart the encoded \(operation.methodName) call")
        }
        var offsets: [Int] = []
        var searchFrom = 0
        for uuid in uuids {
            let needle = Array(uuid.utf8)
            guard needle.count >= Self.counterDigits, let found = Self.find(needle, in: body, from: searchFrom) else {
                throw LoadFailure("uuid \(uuid) not found in the encoded \(operation.methodName) call")
            }
            offsets.append(found + needle.count - Self.counterDigits)
            searchFrom = found + needle.count
        }
        self.body = body
        counterOffsets = offsets
    }

    /// Appends the whole frame for call `callID` to `buffer` (stamping `counter` into the uuids
    /// first, if any); returns the frame's size in bytes.
    @inline(__always)
    mutating func appendFrame(callID: UInt64, counter: UInt64, to buffer: inout [UInt8]) -> Int {
        if !counterOffsets.isEmpty { stamp(counter) }
        let callSize = 1 + ProtobufWriter.varintSize(callID) + body.count
        let messageSize = 1 + ProtobufWriter.varintSize(UInt64(callSize)) + callSize
        buffer.append(0)
        buffer.append(UInt8(truncatingIfNeeded: messageSize >> 24))
        buffer.append(UInt8(truncatingIfNeeded: messageSize >> 16))
        buffer.append(UInt8(truncatingIfNeeded: messageSize >> 8))
        buffer.append(UInt8(truncatingIfNeeded: messageSize))
        buffer.append(0x0a)  // ClientFrame.call, length-delimited
        ProtobufWriter.appendVarint(UInt64(callSize), to: &buffer)
        buffer.append(0x08)  // Call.call_id, varint
        ProtobufWriter.appendVarint(callID, to: &buffer)
        buffer.append(contentsOf: body)
        return 5 + messageSize
    }

    /// Writes `counter` as 12 lower-case hex digits at every counter offset.
    private mutating func stamp(_ counter: UInt64) {
        let digits = Self.hexDigits
        body.withUnsafeMutableBufferPointer { bytes in
            for offset in counterOffsets {
                var rest = counter
                for position in stride(from: offset + Self.counterDigits - 1, through: offset, by: -1) {
                    bytes[position] = digits[Int(rest & 0xf)]
                    rest >>= 4
                }
            }
        }
    }

    /// The Call message of a whole ClientFrame frame, with any call_id field removed.
    static func callBodyWithoutID(frame: [UInt8]) -> [UInt8]? {
        guard frame.count > 5 else { return nil }
        return frame.withUnsafeBytes { raw -> [UInt8]? in
            var outer = ProtobufReader(UnsafeRawBufferPointer(rebasing: raw[5...]))
            guard let (field, wireType) = outer.readTag(), field == 1, wireType == ProtobufReader.lengthDelimited,
                  let callRange = outer.readLengthDelimited(), outer.isAtEnd else { return nil }
            let call = UnsafeRawBufferPointer(rebasing: raw[(5 + callRange.lowerBound)..<(5 + callRange.upperBound)])
            var reader = ProtobufReader(call)
            var body: [UInt8] = []
            body.reserveCapacity(call.count)
            while !reader.isAtEnd {
                let start = reader.position
                guard let (field, wireType) = reader.readTag(), reader.skip(wireType: wireType) else { return nil }
                if field != 1 { body.append(contentsOf: call[start..<reader.position]) }
            }
            return body
        }
    }

    /// The first index at or after `start` where `needle` occurs in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
