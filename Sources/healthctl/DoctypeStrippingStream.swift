import Foundation

/// An input stream that blanks out the document type declaration (`<!DOCTYPE HealthData [ … ]>`)
/// at the start of the stream it wraps, keeping its newlines so line numbers stay right.
///
/// Why: the DTD declares no entities or default values the records need, and without it nothing
/// in the document can declare an entity (libxml2 is run without entity substitution, but a
/// document that cannot declare any needs no further thought). It was first needed because
/// Foundation's XMLParser on Linux crashed (a NULL `strlen` in its attribute-declaration callback)
/// on the `#REQUIRED`/`#IMPLIED` declarations every Apple Health export has.
final class DoctypeStrippingStream: InputStream {
    /// How far into the file the declaration may end (Apple's is about 10 KB).
    static let prologueLimit = 1 << 20
    private let base: InputStream
    private var prologue: [UInt8] = []
    private var offset = 0
    private var prologueRead = false

    /// A stream of `base`'s bytes without its document type declaration.
    init(_ base: InputStream) {
        self.base = base
        super.init(data: Data())
    }

    override func open() { base.open() }
    override func close() { base.close() }
    override var streamError: (any Error)? { base.streamError }
    override var hasBytesAvailable: Bool { offset < prologue.count || !prologueRead || base.hasBytesAvailable }
    override var streamStatus: Stream.Status {
        if !prologueRead || offset < prologue.count { return base.streamStatus == .error ? .error : .open }
        return base.streamStatus
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if !prologueRead { readPrologue() }
        if offset < prologue.count {
            let count = min(len, prologue.count - offset)
            prologue.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + offset, count: count)
            }
            offset += count
            if offset == prologue.count { prologue = [] ; offset = 0 }
            return count
        }
        return base.read(buffer, maxLength: len)
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool { false }

    /// Reads until the declaration's end (or the root element, or the limit) and blanks it out.
    private func readPrologue() {
        prologueRead = true
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while prologue.count < Self.prologueLimit {
            let count = chunk.withUnsafeMutableBufferPointer { base.read($0.baseAddress!, maxLength: $0.count) }
            guard count > 0 else { break }
            prologue.append(contentsOf: chunk[0..<count])
            if Self.blankDoctype(&prologue) != nil { return }
            if prologue.count > 64, Self.find(Array("<HealthData".utf8), in: prologue, from: 0) != nil { return }
        }
    }

    /// Replaces the first `<!DOCTYPE …>` (with its `[ … ]` internal subset) in `bytes` by spaces,
    /// keeping newlines; its end offset, or nil when no complete declaration is there.
    @discardableResult
    static func blankDoctype(_ bytes: inout [UInt8]) -> Int? {
        guard let start = find(Array("<!DOCTYPE".utf8), in: bytes, from: 0) else { return nil }
        var index = start + 9
        var inSubset = false
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                for position in start...index where bytes[position] != 0x0A { bytes[position] = 0x20 }
                return index + 1
            } else if inSubset, byte == UInt8(ascii: "<"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "!"),
                      bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") {
                // A comment inside the subset: skip to its end (it may hold quotes or brackets).
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4) else { return nil }
                index = end + 2
            }
            index += 1
        }
        return nil
    }

    /// The first offset of `needle` in `bytes` at or after `from`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        var index = from
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
