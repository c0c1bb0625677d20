public import BrokerModel

// Type identifiers between the model's ObjectType and the .proto's string fields.
extension ObjectType {
    /// The type a decoded identifier field names: a catalogued spelling comes back as the
    /// catalogue's shared value (the decoded string is let go), any other as `ObjectType(identifier)`.
    @inline(__always)
    public init(protoIdentifier identifier: String) {
        // The strict reader hands out the catalogue's own string for a catalogued identifier: found
        // by address, its bytes are not looked up a second time.
        if let known = TypeCatalogue.knownType(spelling: identifier) {
            self = known
            return
        }
        var identifier = identifier
        if let known = identifier.withUTF8({ TypeCatalogue.knownType(utf8: $0) }) {
            self = known
        } else {
            self.init(identifier)
        }
    }

    /// The types a decoded repeated identifier field names, in order.
    public static func types(protoIdentifiers identifiers: [String]) -> [ObjectType] {
        guard !identifiers.isEmpty else { return [] }
        var types: [ObjectType] = []
        types.reserveCapacity(identifiers.count)
        for identifier in identifiers { types.append(ObjectType(protoIdentifier: identifier)) }
        return types
    }

    /// The identifiers of `types`, in order: a repeated identifier field.
    package static func protoIdentifiers(_ types: [ObjectType]) -> [String] {
        guard !types.isEmpty else { return [] }
        var identifiers: [String] = []
        identifiers.reserveCapacity(types.count)
        for type in types { identifiers.append(type.identifier) }
        return identifiers
    }

    /// Whether `self` sorts before `other` by identifier as strcmp sorts the C strings protobuf-c
    /// packs (bytes up to the first NUL); catalogued types go by their precomputed rank.
    @inline(__always)
    func precedesOnWire(_ other: ObjectType) -> Bool {
        if let rank = TypeCatalogue.byteOrderRank(of: self), let otherRank = TypeCatalogue.byteOrderRank(of: other) {
            return rank < otherRank
        }
        return identifier.precedesAsCString(other.identifier)
    }
}
