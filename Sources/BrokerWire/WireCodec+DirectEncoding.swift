#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import BrokerModel

// The ServerFrames answered per call (a status alone, Ping, AuthorizationStatus, RequestStatus,
// EarliestAuthorizedSampleDate, EarliestPermittedSampleDate), and the stream items carrying pages of
// samples (WireCodec+DirectSampleEncoding), encoded straight into the output
// buffer, without protobuf-c: no C structs, no packed-size pass over descriptors, no scratch
// strings. The bytes are exactly protobuf-c's (field order by number; proto3 zero scalars, empty
// strings and empty bytes left out; a set sub-message or oneof case always written, even empty;
// strings cut at their first NUL as a C string is; negative enums as 10-byte varints). The
// WireCodecDirectEncodingTests compare the two encoders.
extension WireCodec {
    /// True when `append(_:to:)` encodes `frame` directly rather than through protobuf-c.
    static func encodesDirectly(_ frame: ServerFrame) -> Bool {
        switch frame.response {
        case nil, .ping?, .authorizationStatus?, .requestStatus?, .earliestAuthorizedSampleDate?,
             .earliestPermittedSampleDate?, .streamItem(.samples)?, .streamItem(.anchoredPage)?:
            return true
        default:
            return false
        }
    }

    /// Appends `frame` (one of the shapes `encodesDirectly` accepts) as a whole frame.
    static func appendDirectly(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        let callID = frame.callID
        switch frame.response {
        case nil:
            appendFrame(callID: callID, status: frame.status, responseField: 0, responseSize: 0, to: &buffer) { _ in }
        case .ping(let ping)?:
            ping.payload.withUnsafeBufferPointer { payload in
                appendPing(
                    callID: callID, status: frame.status, payload: payload, brokerTimeMicros: ping.brokerTimeMicros,
                    sequence: ping.sequence, to: &buffer)
            }
        case .authorizationStatus(let value)?:
            appendEnumResponse(callID: callID, status: frame.status, field: 21, value: value.rawValue, to: &buffer)
        case .requestStatus(let value)?:
            appendEnumResponse(callID: callID, status: frame.status, field: 22, value: value.rawValue, to: &buffer)
        case .earliestPermittedSampleDate(let date)?:
            let size = int64FieldSize(date)
            appendFrame(callID: callID, status: frame.status, responseField: 24, responseSize: size, to: &buffer) { out in
                out.int64Field(0x08, date)
            }
        case .earliestAuthorizedSampleDate(let dates)?:
            withTemporaryEntries(of: dates.dictionary, as: { (type: $0, dateMicros: $1) }) { entries in
                appendEarliestAuthorizedSampleDates(callID: callID, status: frame.status, sorting: entries, to: &buffer)
            }
        case .streamItem(.samples(let samples))?:
            appendSamplePage(callID: callID, status: frame.status, samples: samples, to: &buffer)
        case .streamItem(.anchoredPage(let page))?:
            appendAnchoredPage(callID: callID, status: frame.status, page: page, to: &buffer)
        default:
            preconditionFailure("appendDirectly does not encode \(frame)")
        }
    }

    /// Appends a ServerFrame answering Ping (no status), as
    /// `append(ServerFrame(callID:response: .ping(PingResponse(payload:brokerTimeMicros:))))` would.
    public static func appendPingReply(callID: UInt64, payload: [UInt8], brokerTimeMicros: Int64, to buffer: inout [UInt8]) {
        payload.withUnsafeBufferPointer { payload in
            appendPing(callID: callID, status: nil, payload: payload, brokerTimeMicros: brokerTimeMicros, sequence: 0, to: &buffer)
        }
    }

    /// Appends a ServerFrame answering AuthorizationStatus (no status), as
    /// `append(ServerFrame(callID:response: .authorizationStatus(status)))` would.
    public static func appendAuthorizationStatusReply(callID: UInt64, status: AuthorizationStatus, to buffer: inout [UInt8]) {
        appendEnumResponse(callID: callID, status: nil, field: 21, value: status.rawValue, to: &buffer)
    }

    @inline(__always)
    private static func appendPing(
        callID: UInt64, status: Status?, payload: UnsafeBufferPointer<UInt8>, brokerTimeMicros: Int64, sequence: UInt64,
        to buffer: inout [UInt8]
    ) {
        let size = bytesFieldSize(payload.count) + int64FieldSize(brokerTimeMicros)
            + (sequence == 0 ? 0 : 1 + varintSize(sequence))
        appendFrame(callID: callID, status: status, responseField: 11, responseSize: size, to: &buffer) { out in
            if !payload.isEmpty {
                out.byte(0x0A)
                out.varint(payload.count)
                out.bytes(payload)
            }
            out.int64Field(0x10, brokerTimeMicros)
            if sequence != 0 {
                out.byte(0x18)
                out.varint(sequence)
            }
        }
    }

    /// A response message holding one enum field (number 1).
    @inline(__always)
    private static func appendEnumResponse(
        callID: UInt64, status: Status?, field: UInt64, value: Int32, to buffer: inout [UInt8]
    ) {
        appendFrame(callID: callID, status: status, responseField: field, responseSize: enumFieldSize(value), to: &buffer) {
            out in
            out.enumField(0x08, value)
        }
    }

    /// Appends a ServerFrame answering EarliestAuthorizedSampleDate with `dates`, exactly as
    /// `append(ServerFrame(callID:response: .earliestAuthorizedSampleDate(…)))` would with the same
    /// entries in a dictionary: sorted by identifier. Sorts `dates` in place.
    ///
    /// The types must be distinct (as a dictionary's keys are); the broker answers with this from
    /// scratch memory, without building a dictionary or a `ServerFrame`.
    public static func appendEarliestAuthorizedSampleDateReply(
        callID: UInt64, dates: UnsafeMutableBufferPointer<(type: ObjectType, dateMicros: Int64)>, to buffer: inout [UInt8]
    ) {
        appendEarliestAuthorizedSampleDates(callID: callID, status: nil, sorting: dates, to: &buffer)
    }

    /// Appends a ServerFrame answering EarliestAuthorizedSampleDate with dates for catalogued types
    /// given by index (`TypeCatalogue.spelledIndex(of:)`: identifiers spelled exactly as catalogued),
    /// to the same bytes as the `ObjectType` form: sorted by identifier. Sorts `entries` in place.
    ///
    /// The indexes must be distinct. The identifier fields come from a table made once.
    public static func appendEarliestAuthorizedSampleDateReply(
        callID: UInt64, catalogued entries: UnsafeMutableBufferPointer<(catalogueIndex: Int, dateMicros: Int64)>,
        to buffer: inout [UInt8]
    ) {
        let table = CatalogueTypeFields.shared
        if entries.count > 1 {
            for end in 1..<entries.count {
                var index = end
                while index > 0, table.ranks[entries[index].catalogueIndex] < table.ranks[entries[index - 1].catalogueIndex] {
                    entries.swapAt(index, index - 1)
                    index -= 1
                }
            }
        }
        var listSize = 0
        for entry in entries {
            let entrySize = table.fieldCounts[entry.catalogueIndex] + int64FieldSize(entry.dateMicros)
            listSize += 1 + varintSize(entrySize) + entrySize
        }
        let sorted = UnsafeBufferPointer(entries)
        table.bytes.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.unsafelyUnwrapped
            appendFrame(callID: callID, status: nil, responseField: 23, responseSize: listSize, to: &buffer) { out in
                for entry in sorted {
                    let fieldCount = table.fieldCounts[entry.catalogueIndex]
                    out.byte(0x0A)
                    out.varint(fieldCount + int64FieldSize(entry.dateMicros))
                    out.bytes(UnsafeBufferPointer(start: base + table.fieldStarts[entry.catalogueIndex], count: fieldCount))
                    out.int64Field(0x10, entry.dateMicros)
                }
            }
        }
    }

    private static func appendEarliestAuthorizedSampleDates(
        callID: UInt64, status: Status?, sorting entries: UnsafeMutableBufferPointer<(type: ObjectType, dateMicros: Int64)>,
        to buffer: inout [UInt8]
    ) {
        // A C string ends at its first NUL: the protobuf-c path sends (and sorts) only that prefix.
        // (A catalogued spelling never holds one.)
        for index in entries.indices where TypeCatalogue.catalogueSpelling(of: entries[index].type) == nil {
            let identifier = entries[index].type.identifier
            if identifier.utf8.contains(0) { entries[index].type = ObjectType(cStringPrefix(identifier)) }
        }
        sortByIdentifierBytes(entries)
        var listSize = 0
        for entry in entries {
            let entrySize = typeDateSize(identifierByteCount(entry.type), entry.dateMicros)
            listSize += 1 + varintSize(entrySize) + entrySize
        }
        let sorted = UnsafeBufferPointer(entries)
        appendFrame(callID: callID, status: status, responseField: 23, responseSize: listSize, to: &buffer) { out in
            for entry in sorted {
                let identifierBytes = identifierByteCount(entry.type)
                out.byte(0x0A)
                out.varint(typeDateSize(identifierBytes, entry.dateMicros))
                if identifierBytes > 0 {
                    out.byte(0x0A)
                    out.varint(identifierBytes)
                    if let spelling = TypeCatalogue.catalogueSpelling(of: entry.type) {
                        out.bytes(spelling)
                    } else {
                        out.string(entry.type.identifier)
                    }
                }
                out.int64Field(0x10, entry.dateMicros)
            }
        }
    }

    /// Runs `body` with `dictionary`'s entries, each made an `Entry`, in temporary storage (in the
    /// dictionary's order): for sorting them in place without allocating an array.
    @inline(__always)
    static func withTemporaryEntries<Key, Value, Entry, Result>(
        of dictionary: [Key: Value], as entry: (Key, Value) -> Entry, _ body: (UnsafeMutableBufferPointer<Entry>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: Entry.self, capacity: max(dictionary.count, 1)) { scratch in
            let first = scratch.baseAddress.unsafelyUnwrapped
            var count = 0
            for (key, value) in dictionary {
                (first + count).initialize(to: entry(key, value))
                count += 1
            }
            defer { first.deinitialize(count: count) }
            return body(UnsafeMutableBufferPointer(start: first, count: count))
        }
    }

    @inline(__always)
    private static func identifierByteCount(_ type: ObjectType) -> Int {
        TypeCatalogue.catalogueSpelling(of: type)?.count ?? type.identifier.utf8.count
    }

    // MARK: Sizes

    /// The bytes of `value` as a base-128 varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// The bytes of a non-negative length as a varint.
    @inline(__always)
    static func varintSize(_ value: Int) -> Int {
        varintSize(UInt64(truncatingIfNeeded: value))
    }

    /// Field 1 (uint64 call_id), left out when 0.
    @inline(__always)
    private static func callIDSize(_ callID: UInt64) -> Int {
        callID == 0 ? 0 : 1 + varintSize(callID)
    }

    /// An enum field with a one-byte key, left out when 0; a negative number is sign-extended.
    @inline(__always)
    private static func enumFieldSize(_ value: Int32) -> Int {
        value == 0 ? 0 : 1 + varintSize(UInt64(bitPattern: Int64(value)))
    }

    /// An int64 field with a one-byte key, left out when 0.
    @inline(__always)
    static func int64FieldSize(_ value: Int64) -> Int {
        value == 0 ? 0 : 1 + varintSize(UInt64(bitPattern: value))
    }

    /// A length-delimited field with a one-byte key, left out when empty.
    @inline(__always)
    static func bytesFieldSize(_ count: Int) -> Int {
        count == 0 ? 0 : 1 + varintSize(count) + count
    }

    private static func statusSize(_ status: Status, messageBytes: Int) -> Int {
        enumFieldSize(cStatusCode(status.code).wireInt32) + enumFieldSize(cDomainCode(status.domain).wireInt32)
            + bytesFieldSize(messageBytes)
    }

    @inline(__always)
    private static func typeDateSize(_ identifierBytes: Int, _ dateMicros: Int64) -> Int {
        bytesFieldSize(identifierBytes) + int64FieldSize(dateMicros)
    }

    // MARK: Writing

    @inline(__always)
    private static func writeCallID(_ callID: UInt64, _ out: inout DirectWriter) {
        if callID != 0 {
            out.byte(0x08)
            out.varint(callID)
        }
    }

    private static func writeStatus(_ status: Status, message: String, _ out: inout DirectWriter) {
        out.enumField(0x08, cStatusCode(status.code).wireInt32)
        out.enumField(0x10, cDomainCode(status.domain).wireInt32)
        let messageBytes = message.utf8.count
        if messageBytes > 0 {
            out.byte(0x1A)
            out.varint(messageBytes)
            out.string(message)
        }
    }

    /// Appends a whole ServerFrame: header, call_id, `status` if any, then response oneof case
    /// `responseField` (0: none) holding `responseSize` bytes that `writeResponse` writes; checks
    /// that exactly the announced bytes were written.
    @inline(__always)
    static func appendFrame(
        callID: UInt64, status: Status?, responseField: UInt64, responseSize: Int, to buffer: inout [UInt8],
        _ writeResponse: (inout DirectWriter) -> Void
    ) {
        var size = callIDSize(callID)
        var statusMessage = ""
        var statusSize = 0
        if let status {
            statusMessage = cStringPrefix(status.message)
            statusSize = Self.statusSize(status, messageBytes: statusMessage.utf8.count)
            size += 1 + varintSize(statusSize) + statusSize
        }
        if responseField != 0 {
            size += varintSize(responseField << 3) + varintSize(responseSize) + responseSize
        }
        let total = FrameDecoder.headerSize + size
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            let start = scratch.baseAddress.unsafelyUnwrapped
            FrameHeader.write(length: size, to: start)
            var out = DirectWriter(cursor: start + FrameDecoder.headerSize)
            writeCallID(callID, &out)
            if let status {
                out.byte(0x12)
                out.varint(statusSize)
                writeStatus(status, message: statusMessage, &out)
            }
            if responseField != 0 {
                out.key(field: responseField)
                out.varint(responseSize)
                let responseStart = out.cursor
                writeResponse(&out)
                precondition(out.cursor == responseStart + responseSize, "direct encoding wrote a response of \(out.cursor - responseStart) bytes, announced \(responseSize)")
            }
            precondition(out.cursor == start + total, "direct encoding wrote \(out.cursor - start) bytes, announced \(total)")
            buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: total))
        }
    }

    // MARK: C string semantics

    /// `string` up to its first NUL, as protobuf-c reads a C string.
    static func cStringPrefix(_ string: String) -> String {
        guard let nul = string.utf8.firstIndex(of: 0) else { return string }
        return String(string[..<nul])
    }

    /// Sorts by identifier bytes (strcmp order), by precomputed rank for catalogued spellings; an
    /// insertion sort, as there are at most a few entries.
    @inline(__always)
    private static func sortByIdentifierBytes(_ entries: UnsafeMutableBufferPointer<(type: ObjectType, dateMicros: Int64)>) {
        var entries = entries
        guard entries.count > 1 else { return }
        guard entries.count <= 16 else {
            entries.sort { left, right in precedes(left.type, right.type) }
            return
        }
        for end in 1..<entries.count {
            var index = end
            while index > 0, precedes(entries[index].type, entries[index - 1].type) {
                entries.swapAt(index, index - 1)
                index -= 1
            }
        }
    }

    @inline(__always)
    private static func precedes(_ left: ObjectType, _ right: ObjectType) -> Bool {
        if let leftRank = TypeCatalogue.byteOrderRank(of: left), let rightRank = TypeCatalogue.byteOrderRank(of: right) {
            return leftRank < rightRank
        }
        return precedesInByteOrder(left.identifier, right.identifier)
    }

    /// strcmp order (unsigned bytes) of two strings without NULs.
    @inline(__always)
    static func precedesInByteOrder(_ left: String, _ right: String) -> Bool {
        if let result = left.utf8.withContiguousStorageIfAvailable({ leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                let order = common == 0 ? 0 : memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, common)
                return order != 0 ? order < 0 : leftBytes.count < rightBytes.count
            }
        }), let result {
            return result
        }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}

/// Writes protobuf bytes forward from a cursor into memory sized beforehand.
struct DirectWriter {
    var cursor: UnsafeMutablePointer<UInt8>

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        cursor.pointee = value
        cursor += 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(truncatingIfNeeded: value))
    }

    @inline(__always)
    mutating func varint(_ value: Int) {
        varint(UInt64(truncatingIfNeeded: value))
    }

    /// The key of length-delimited field `field` (wire type 2).
    @inline(__always)
    mutating func key(field: UInt64) {
        varint(field << 3 | 2)
    }

    /// An enum field with a one-byte key, left out when 0; a negative number sign-extended (10 bytes).
    @inline(__always)
    mutating func enumField(_ key: UInt8, _ value: Int32) {
        guard value != 0 else { return }
        byte(key)
        varint(UInt64(bitPattern: Int64(value)))
    }

    /// An int64 field with a one-byte key, left out when 0.
    @inline(__always)
    mutating func int64Field(_ key: UInt8, _ value: Int64) {
        guard value != 0 else { return }
        byte(key)
        varint(UInt64(bitPattern: value))
    }

    /// A fixed64 (wire type 1) value: 8 bytes, little-endian.
    @inline(__always)
    mutating func fixed64(_ value: UInt64) {
        UnsafeMutableRawPointer(cursor).storeBytes(of: value.littleEndian, as: UInt64.self)
        cursor += 8
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        memcpy(cursor, base, source.count)
        cursor += source.count
    }

    @inline(__always)
    mutating func string(_ string: String) {
        var string = string
        string.withUTF8 { self.bytes($0) }
    }
}

extension RawRepresentable where RawValue: FixedWidthInteger {
    /// An imported C enum's number as the Int32 the .proto gives it.
    @inline(__always)
    fileprivate var wireInt32: Int32 { Int32(truncatingIfNeeded: rawValue) }
}

/// The TypeDate `type` field (key 0x0A, length, identifier bytes) of every catalogued type, by
/// catalogue index, in one flat array, and each identifier's place in strcmp order.
private final class CatalogueTypeFields: Sendable {
    static let shared = CatalogueTypeFields()

    let bytes: [UInt8]
    let fieldStarts: [Int]
    let fieldCounts: [Int]
    let ranks: [Int]

    private init() {
        var identifiers = [[UInt8]](repeating: [], count: TypeCatalogue.count)
        for descriptor in TypeCatalogue.all {
            guard let index = TypeCatalogue.spelledIndex(of: descriptor.type) else {
                preconditionFailure("catalogue type \(descriptor.type) has no catalogue index")
            }
            identifiers[index] = Array(descriptor.type.identifier.utf8)
        }
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var counts: [Int] = []
        for identifier in identifiers {
            precondition(!identifier.isEmpty && !identifier.contains(0), "catalogue identifiers are non-empty C strings")
            let start = bytes.count
            bytes.append(0x0A)
            var length = UInt64(identifier.count)
            while length >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += identifier
            starts.append(start)
            counts.append(bytes.count - start)
        }
        let order = identifiers.indices.sorted { identifiers[$0].lexicographicallyPrecedes(identifiers[$1]) }
        var ranks = [Int](repeating: 0, count: identifiers.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        self.bytes = bytes
        fieldStarts = starts
        fieldCounts = counts
        self.ranks = ranks
    }
}
