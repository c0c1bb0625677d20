/// The attributes of the Record being read that the import uses, copied out of libxml2's buffers
/// into one reused byte array (a Record's children, its MetadataEntry elements, come before its end).
struct AppleHealthRecordText {
    private(set) var bytes: [UInt8] = []
    /// Where each attribute's value is in `bytes` (empty when the record does not have it).
    private(set) var type = 0..<0
    private(set) var unit = 0..<0
    private(set) var value = 0..<0
    private(set) var sourceName = 0..<0
    private(set) var startDate = 0..<0
    private(set) var endDate = 0..<0

    /// Takes a Record start tag's attributes (the last of a name, if repeated, as XMLParser's dictionary did).
    mutating func read(_ attributes: XMLAttributes) {
        bytes.removeAll(keepingCapacity: true)
        type = 0..<0
        unit = 0..<0
        value = 0..<0
        sourceName = 0..<0
        startDate = 0..<0
        endDate = 0..<0
        for index in 0..<attributes.count {
            let name = attributes.name(at: index)
            let range: WritableKeyPath<Self, Range<Int>>
            switch name.bytes.count {
            case 4 where name.equals("type"): range = \.type
            case 4 where name.equals("unit"): range = \.unit
            case 5 where name.equals("value"): range = \.value
            case 10 where name.equals("sourceName"): range = \.sourceName
            case 9 where name.equals("startDate"): range = \.startDate
            case 7 where name.equals("endDate"): range = \.endDate
            default: continue
            }
            let start = bytes.count
            attributes.value(at: index).appendDecoded(to: &bytes)
            self[keyPath: range] = start..<bytes.count
        }
    }

    /// Runs `body` over the bytes of `range`.
    @inline(__always)
    func withBytes<T>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The bytes of `range` as a String (short values stay inline: no allocation).
    func string(_ range: Range<Int>) -> String {
        withBytes(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the bytes of `range` to `output`.
    @inline(__always)
    func appendBytes(_ range: Range<Int>, to output: inout [UInt8]) {
        output.append(contentsOf: bytes[range])
    }
}
