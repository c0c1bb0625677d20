import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// Receives the elements an `XMLSAXReader` reads, on the reading thread.
///
/// Names and attribute values are libxml2's buffers, valid only during the call: copy what must outlive it.
protocol XMLSAXHandler: AnyObject {
    /// An element's start tag (an empty element gets `endElement` right after).
    func startElement(_ name: XMLText, attributes: XMLAttributes)
    /// An element's end.
    func endElement(_ name: XMLText)
}

/// A run of UTF-8 bytes libxml2 handed over (a name or an attribute value, entities already replaced).
struct XMLText {
    /// The bytes.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the bytes are exactly `literal`'s.
    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && (bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
    }

    /// The text as a String (invalid UTF-8 cannot occur: libxml2 checks the encoding).
    var string: String {
        guard hasAmpersand else { return String(decoding: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        appendDecoded(to: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Whether the bytes hold an `&`, which libxml2 (not replacing entities) writes as `&#38;`.
    var hasAmpersand: Bool {
        bytes.count > 0 && memchr(bytes.baseAddress!, Int32(UInt8(ascii: "&")), bytes.count) != nil
    }

    /// Appends the text to `output`, with libxml2's `&#38;` back to `&`.
    ///
    /// Without XML_PARSE_NOENT (which would also expand a DTD's entities, external ones included)
    /// libxml2 hands attribute values over with every `&` (from `&amp;` or `&#38;`) as `&#38;` and
    /// everything else decoded; a literal `&` cannot be in a well-formed value, so this is exact.
    func appendDecoded(to output: inout [UInt8]) {
        guard hasAmpersand else {
            output.append(contentsOf: bytes)
            return
        }
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + 4 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
               bytes[index + 2] == UInt8(ascii: "3"), bytes[index + 3] == UInt8(ascii: "8"), bytes[index + 4] == UInt8(ascii: ";") {
                output.append(UInt8(ascii: "&"))
                index += 5
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
    }
}

/// An element's attributes as libxml2's SAX2 start callback gives them: five pointers each (local
/// name, prefix, namespace, value start, value end). Prefixes are ignored: an export has none.
struct XMLAttributes {
    fileprivate let pointers: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// How many attributes the element has.
    let count: Int

    /// The name of attribute `index`.
    func name(at index: Int) -> XMLText {
        let name = pointers![5 * index]!
        return XMLText(bytes: UnsafeBufferPointer(start: name, count: strlen(name)))
    }

    /// The value of attribute `index`.
    func value(at index: Int) -> XMLText {
        let start = pointers![5 * index + 3]!
        let end = pointers![5 * index + 4]!
        return XMLText(bytes: UnsafeBufferPointer(start: start, count: end - start))
    }

    /// The value of the attribute named `name`, if the element has it.
    func value(of name: StaticString) -> XMLText? {
        var index = 0
        while index < count {
            if strcmp(pointers![5 * index]!, name.utf8Start) == 0 { return value(at: index) }
            index += 1
        }
        return nil
    }

    /// Every attribute as Strings, for elements that are rare enough not to matter (Workout, Me).
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        for index in 0..<count { result[name(at: index).string] = value(at: index).string }
        return result
    }
}

/// A streaming XML reader over libxml2's SAX2 push parser, fed bytes as they come: memory stays
/// that of one input chunk plus the element being read, whatever the document's size.
///
/// It reads well-formedness only: no DTD is loaded or validated, no entity but the predefined and
/// character references is expanded, no network is touched. The only code that imports libxml2.
final class XMLSAXReader {
    /// The first error: libxml2's message, with its line and column.
    private(set) var error: (message: String, line: Int, column: Int)?
    /// Whether the whole document was read and well formed.
    private(set) var finished = false
    /// Whether the last bytes were fed (an error from then on is about how the document ends).
    private(set) var atEnd = false
    private unowned let handler: any XMLSAXHandler
    private var context: xmlParserCtxtPtr?
    private var sax = xmlSAXHandler()

    /// A reader handing the elements it reads to `handler` (held unowned: keep it alive while feeding).
    init(handler: any XMLSAXHandler) {
        self.handler = handler
        xmlInitParser()
        sax.initialized = healthbroker_xml_sax2_magic()
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let reader = Unmanaged<XMLSAXReader>.fromOpaque(context).takeUnretainedValue()
            let name = XMLText(bytes: UnsafeBufferPointer(start: localName, count: strlen(localName)))
            reader.handler.startElement(name, attributes: XMLAttributes(pointers: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            let reader = Unmanaged<XMLSAXReader>.fromOpaque(context).takeUnretainedValue()
            reader.handler.endElement(XMLText(bytes: UnsafeBufferPointer(start: localName, count: strlen(localName))))
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            let reader = Unmanaged<XMLSAXReader>.fromOpaque(context).takeUnretainedValue()
            reader.noteError(error.pointee)
        }
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    /// Parses the next `bytes` of the document (`last`: the document ends after them). False once
    /// the document is not well formed (see `error`); nothing more is read after that.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer, last: Bool = false) -> Bool {
        guard error == nil, !finished else { return error == nil }
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        if last { atEnd = true }
        if context == nil {
            context = withUnsafeMutablePointer(to: &sax) { sax in
                xmlCreatePushParserCtxt(sax, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil)
            }
            guard let context else {
                error = ("libxml2 could not make a parser", 0, 0)
                return false
            }
            xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        }
        let status = xmlParseChunk(context, base, Int32(bytes.count), last ? 1 : 0)
        if status != 0, error == nil { error = ("XML error \(status)", lineNumber, 0) }
        if last, error == nil { finished = true }
        return error == nil
    }

    /// The line the parser is at.
    var lineNumber: Int {
        guard let context else { return 0 }
        return Int(xmlSAX2GetLineNumber(context))
    }

    private func noteError(_ raised: xmlError) {
        guard error == nil, raised.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = raised.message.map { String(cString: $0) } ?? "not well-formed XML (code \(raised.code))"
        while message.last?.isWhitespace == true { message.removeLast() }
        error = (message, Int(raised.line), Int(raised.int2))
        if let context { xmlStopParser(context) }
    }
}
