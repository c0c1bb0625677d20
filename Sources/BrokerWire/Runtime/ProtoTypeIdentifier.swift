public import BrokerModel

/// A type identifier field of a hot request (AuthorizationStatus, EarliestAuthorizedSampleDate) as
/// read: the catalogue index of a catalogued identifier is found once, when the field is read or
/// set, so the handler gets the catalogue's type without looking the identifier up again.
///
/// The message's `String` property (`type`, `types`) still reads and writes the same spelling; this
/// only keeps what the look-up found. Equality and hashing are the spelling's (`String`'s).
public struct ProtoTypeIdentifier: Hashable, Sendable {
    /// The catalogue index when the spelling is exactly a catalogued identifier's bytes, else -1.
    public let catalogueIndex: Int32
    /// The spelling of an identifier that is not exactly a catalogued one's bytes; nil otherwise.
    /// Boxed, so the value is as small as a `String` (16 bytes) and the messages holding it stay as
    /// small to copy as before; an uncatalogued identifier is an error's path.
    private let uncatalogued: Uncatalogued?

    /// An uncatalogued spelling, boxed.
    private final class Uncatalogued: Sendable {
        let spelling: String
        init(_ spelling: String) { self.spelling = spelling }
    }

    /// The empty identifier (a field left at its default).
    public init() {
        catalogueIndex = -1
        uncatalogued = nil
    }

    /// `spelling`, its catalogue index looked up by its bytes.
    public init(_ spelling: String) {
        var copy = spelling
        let index = copy.withUTF8 { TypeCatalogue.catalogueIndex(utf8: $0) }
        if index >= 0 {
            self.init(catalogueIndex: index)
        } else {
            self.init(uncatalogued: spelling)
        }
    }

    /// The catalogued identifier at `index` (a valid catalogue index).
    @inline(__always)
    init(catalogueIndex index: Int) {
        catalogueIndex = Int32(truncatingIfNeeded: index)
        uncatalogued = nil
    }

    /// `spelling`, which is not exactly a catalogued identifier's bytes.
    init(uncatalogued spelling: String) {
        catalogueIndex = -1
        uncatalogued = spelling.isEmpty ? nil : Uncatalogued(spelling)
    }

    /// The identifier as spelled on the wire.
    @inline(__always)
    public var spelling: String {
        catalogueIndex >= 0 ? TypeCatalogue.knownTypes[Int(catalogueIndex)].identifier : uncatalogued?.spelling ?? ""
    }

    /// The type the identifier names, as `ObjectType(protoIdentifier:)` makes it: the catalogue's
    /// shared value for a catalogued identifier (without a second look-up when its bytes are
    /// exactly the catalogue's), `ObjectType(spelling)` for any other.
    @inline(__always)
    public var objectType: ObjectType {
        catalogueIndex >= 0 ? TypeCatalogue.knownTypes[Int(catalogueIndex)] : ObjectType(uncatalogued?.spelling ?? "")
    }

    /// Equal spellings (`String` equality).
    public static func == (lhs: ProtoTypeIdentifier, rhs: ProtoTypeIdentifier) -> Bool {
        if lhs.catalogueIndex >= 0, rhs.catalogueIndex >= 0 { return lhs.catalogueIndex == rhs.catalogueIndex }
        return lhs.spelling == rhs.spelling
    }

    /// Hashes the spelling (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(spelling)
    }
}

extension ProtoTypeIdentifier: CustomStringConvertible, CustomDebugStringConvertible {
    /// The spelling.
    public var description: String { spelling }
    /// The spelling as a quoted, escaped string literal (a NUL shows as `\0`), as a `String` field shows.
    public var debugDescription: String { spelling.debugDescription }
}
