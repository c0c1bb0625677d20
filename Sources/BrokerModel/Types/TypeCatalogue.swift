#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The types the broker knows, by HealthKit identifier.
public enum TypeCatalogue {
    /// One shared `ObjectType` per catalogued identifier, by index (the `ObjectType` constants, whose
    /// identifiers are string literals: copying one costs no reference counting): decoders hand
    /// these out for catalogued identifiers instead of allocating a new string each time.
    ///
    /// Made once, recording where each identifier's bytes live (`IdentifierTable`), so that a string
    /// handed out here is found again by its address (`knownType(spelling:)`).
    package static let knownTypes: [ObjectType] = {
        let types = byIndex.map(\.type)
        IdentifierTable.shared.recordSpellings(of: types)
        return types
    }()

    /// How many types the catalogue holds.
    public static var count: Int { knownIdentifiers.count }

    /// For each catalogued identifier (by index), its place when all are sorted by their bytes.
    private static let byteOrderRanks: [Int] = {
        let order = knownIdentifiers.indices.sorted { left, right in
            let common = min(knownIdentifiers[left].utf8CodeUnitCount, knownIdentifiers[right].utf8CodeUnitCount)
            let order = memcmp(knownIdentifiers[left].utf8Start, knownIdentifiers[right].utf8Start, common)
            return order != 0 ? order < 0 : knownIdentifiers[left].utf8CodeUnitCount < knownIdentifiers[right].utf8CodeUnitCount
        }
        var ranks = [Int](repeating: 0, count: knownIdentifiers.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }()

    /// Where `type`'s identifier falls when catalogued identifiers are sorted by their bytes (as
    /// strcmp sorts them); nil for an uncatalogued type.
    @inline(__always)
    package static func byteOrderRank(of type: ObjectType) -> Int? {
        type.catalogueIndex >= 0 ? byteOrderRanks[type.catalogueIndex] : nil
    }

    /// Where the identifier at catalogue index `index` falls when catalogued identifiers are sorted
    /// by their bytes (as strcmp sorts them).
    @inline(__always)
    package static func byteOrderRank(index: Int) -> Int {
        byteOrderRanks[index]
    }

    /// `type`'s index in `all` (and `knownIdentifiers`); nil for an uncatalogued type. A catalogued
    /// type's identifier is always exactly the catalogue's bytes (`ObjectType(_:)` canonicalises).
    @inline(__always)
    package static func spelledIndex(of type: ObjectType) -> Int? {
        type.catalogueIndex >= 0 ? type.catalogueIndex : nil
    }

    /// Whether the type at each index is a characteristic.
    private static let characteristicFlags: [Bool] = byIndex.map(\.isCharacteristic)

    /// Whether the catalogued type at `index` is a characteristic (`isCharacteristic(_:)` of it).
    @inline(__always)
    package static func isCharacteristic(index: Int) -> Bool {
        characteristicFlags[index]
    }

    /// Whether `type` is a catalogued characteristic (`descriptor(for:)?.isCharacteristic == true`),
    /// without copying a descriptor.
    @inline(__always)
    public static func isCharacteristic(_ type: ObjectType) -> Bool {
        let index = type.catalogueIndex
        return index >= 0 && characteristicFlags[index]
    }

    /// The catalogue's bytes of `type`'s identifier (static storage); nil for an uncatalogued type.
    @inline(__always)
    package static func catalogueSpelling(of type: ObjectType) -> UnsafeBufferPointer<UInt8>? {
        guard type.catalogueIndex >= 0 else { return nil }
        let identifier = knownIdentifiers[type.catalogueIndex]
        return UnsafeBufferPointer(start: identifier.utf8Start, count: identifier.utf8CodeUnitCount)
    }

    /// The descriptor of each catalogued type, by `catalogueIndex`.
    private static let byIndex: [TypeDescriptor] = {
        var descriptors = [TypeDescriptor?](repeating: nil, count: knownIdentifiers.count)
        for descriptor in all {
            let index = descriptor.type.catalogueIndex
            precondition(index >= 0 && descriptors[index] == nil, "\(descriptor.type) is not in knownIdentifiers once")
            descriptors[index] = descriptor
        }
        return descriptors.map { descriptor in
            guard let descriptor else { preconditionFailure("knownIdentifiers holds a type that is not in all") }
            return descriptor
        }
    }()

    /// The position among `knownIdentifiers` of the one `identifier` equals (`String` equality), or
    /// -1; and whether its bytes are exactly that identifier's.
    ///
    /// An exact byte match is the fast path; an identifier that matches no bytes can still equal a
    /// catalogued one canonically only if it is not ASCII, and only then are strings compared.
    static func index(of identifier: String) -> (index: Int, exactBytes: Bool) {
        var identifier = identifier
        let (exact, isASCII) = identifier.withUTF8 { bytes -> (Int, Bool) in
            (Self.index(ofUTF8: bytes), !bytes.contains { $0 >= 0x80 })
        }
        if exact >= 0 { return (exact, true) }
        if isASCII { return (-1, false) }
        return (knownIdentifiers.firstIndex { identifier == $0.description } ?? -1, false)
    }

    /// The position among `knownIdentifiers` of the one whose UTF-8 bytes are exactly `bytes`, or -1.
    ///
    /// One probe of `IdentifierTable` (a hash of the length and two words of the bytes) and one
    /// `memcmp` for a catalogued identifier: the decoders look up every type identifier they read.
    @inline(__always)
    static func index(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        IdentifierTable.shared.index(of: bytes)
    }

    /// The catalogue index of the identifier whose UTF-8 bytes are exactly `bytes`, or -1: one
    /// look-up, for a decoder that keeps the index (`ProtoTypeIdentifier`).
    @inline(__always)
    package static func catalogueIndex(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Self.index(ofUTF8: bytes)
    }

    /// The catalogue's bytes of the identifier at catalogue index `index` (static storage).
    @inline(__always)
    package static func catalogueSpelling(index: Int) -> UnsafeBufferPointer<UInt8> {
        let identifier = knownIdentifiers[index]
        return UnsafeBufferPointer(start: identifier.utf8Start, count: identifier.utf8CodeUnitCount)
    }

    /// The shared value for a catalogued identifier given as exactly its UTF-8 bytes; nil for any
    /// other bytes (make those with `ObjectType(_:)`).
    package static func knownType(utf8 bytes: UnsafeBufferPointer<UInt8>) -> ObjectType? {
        let found = Self.index(ofUTF8: bytes)
        return found >= 0 ? knownTypes[found] : nil
    }

    /// The shared value for `identifier` when it is the very string a catalogued type holds (the
    /// one `knownType(utf8:)` hands a decoder), found by the address of its bytes without reading
    /// them; nil for any other string (look those up by their bytes).
    @inline(__always)
    package static func knownType(spelling identifier: String) -> ObjectType? {
        let utf8 = identifier.utf8
        guard utf8.count > 15 else { return nil }  // a small string's bytes are inline, never a catalogued one's
        let count = knownTypes.count  // recorded the spellings, once
        let found = utf8.withContiguousStorageIfAvailable { bytes in
            IdentifierTable.shared.index(ofSpelling: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped), count: bytes.count)
        } ?? -1
        return found >= 0 && found < count ? knownTypes[found] : nil
    }

    /// The descriptor of a known type; nil for an unknown identifier.
    @inline(__always)
    public static func descriptor(for type: ObjectType) -> TypeDescriptor? {
        type.catalogueIndex >= 0 ? byIndex[type.catalogueIndex] : nil
    }

    /// True when every one of `types` is catalogued.
    @inline(__always)
    public static func containsAll(_ types: [ObjectType]) -> Bool {
        for type in types where type.catalogueIndex < 0 { return false }
        return true
    }

    /// `validate` without the descriptors: nothing is allocated unless an identifier is unknown.
    public static func requireKnown(_ types: [ObjectType], field: String) throws(BrokerError) {
        if !containsAll(types) {
            throw .invalidArgument(unknownMessage(unknownIdentifiers(in: types), field: field))
        }
    }

    /// `validate` of one type, without allocating.
    public static func requireKnown(_ type: ObjectType, field: String) throws(BrokerError) {
        if type.catalogueIndex < 0 {
            throw .invalidArgument(unknownMessage([type], field: field))
        }
    }

    /// Looks every type up, in order; any unknown identifier is INVALID_ARGUMENT naming `field` and each unknown one.
    public static func validate(_ types: [ObjectType], field: String) throws(BrokerError) -> [TypeDescriptor] {
        try requireKnown(types, field: field)
        var descriptors: [TypeDescriptor] = []
        descriptors.reserveCapacity(types.count)
        for type in types { descriptors.append(byIndex[type.catalogueIndex]) }
        return descriptors
    }

    /// The unknown identifiers among `types`, each once, in order of first appearance.
    package static func unknownIdentifiers(in types: [ObjectType]) -> [ObjectType] {
        var seen = Set<ObjectType>()
        return types.filter { $0.catalogueIndex < 0 && seen.insert($0).inserted }
    }

    /// "unknown type identifier(s) in FIELD: "A", "B"".
    package static func unknownMessage(_ unknown: [ObjectType], field: String) -> String {
        let noun = unknown.count == 1 ? "identifier" : "identifiers"
        return "unknown type \(noun) in \(field): \(TypeNames.quoted(unknown))"
    }
}
