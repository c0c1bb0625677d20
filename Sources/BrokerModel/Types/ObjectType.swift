/// A HealthKit data type, named by its HealthKit identifier (e.g. `HKQuantityTypeIdentifierStepCount`).
///
/// Any identifier can be held; `TypeCatalogue` says which ones the broker knows. An identifier that
/// `String` equality treats as a catalogued one but spells with other bytes (U+212A KELVIN SIGN for
/// `K`, a decomposed accent) is canonicalised to the catalogue's bytes when the value is made, so
/// every catalogued type that exists anywhere (decoded from the wire, loaded from SQLite, parsed
/// from a policy) has exactly one spelling: the one stored, deleted, listed, shown and bound into
/// anchors. Two spellings of one type could otherwise be one type in memory and two rows on disk.
///
/// Equality is the identifier's (`String` equality); a catalogued type also carries its position in
/// the catalogue, found once when the value is made, so that comparing, hashing and looking up
/// catalogued types (the hot path of every authorization look-up) never hashes or compares the
/// identifier's bytes.
public struct ObjectType: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The HealthKit identifier.
    public let identifier: String
    /// The position in `TypeCatalogue.knownIdentifiers` of the identifier this one equals, or -1.
    @usableFromInline let storedCatalogueIndex: Int32

    /// The position in `TypeCatalogue.knownIdentifiers` of the identifier this one equals, or -1.
    @inlinable package var catalogueIndex: Int { Int(storedCatalogueIndex) }

    /// Wraps an identifier; one equal to a catalogued identifier gets the catalogue's exact bytes.
    public init(_ identifier: String) {
        let found = TypeCatalogue.index(of: identifier)
        // The only place a spelling is chosen: the catalogue's, whatever bytes the caller had.
        self.identifier = found.index >= 0 && !found.exactBytes
            ? TypeCatalogue.knownIdentifiers[found.index].description : identifier
        storedCatalogueIndex = Int32(found.index)
    }

    /// Equal identifiers (`String` equality). Catalogued types compare by index: two values equal to
    /// the same catalogued identifier share its index, and a value equal to none has -1.
    @inlinable
    public static func == (lhs: ObjectType, rhs: ObjectType) -> Bool {
        if lhs.storedCatalogueIndex >= 0 || rhs.storedCatalogueIndex >= 0 {
            return lhs.storedCatalogueIndex == rhs.storedCatalogueIndex
        }
        return lhs.identifier == rhs.identifier
    }

    /// Hashes the catalogue index of a catalogued type, else the identifier (consistent with `==`).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        if storedCatalogueIndex >= 0 {
            hasher.combine(storedCatalogueIndex)
        } else {
            hasher.combine(identifier)
        }
    }

    /// Orders by identifier.
    public static func < (lhs: ObjectType, rhs: ObjectType) -> Bool { lhs.identifier < rhs.identifier }

    /// The identifier.
    public var description: String { identifier }
}
