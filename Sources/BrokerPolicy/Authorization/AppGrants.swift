public import BrokerModel

/// One app's recorded grants, by type: the in-memory copy the loop answers look-ups from.
///
/// Besides the grants by type it keeps the share and read parts of catalogued types in an array
/// indexed by `ObjectType.catalogueIndex`, rebuilt whenever `grants` changes (rarely), so that the
/// look-ups answered per call hash nothing and copy no strings.
public struct AppGrants: Sendable, Hashable {
    /// The decision parts of one catalogued type.
    struct Parts: Sendable {
        var share: ShareDecision?
        var read: ReadDecision?
    }

    /// The grant of each type the app was ever decided for.
    public var grants: [ObjectType: Grant] {
        didSet { partsByIndex = Self.parts(of: grants) }
    }

    /// The parts of each catalogued type's grant, by catalogue index (all nil when never decided).
    private var partsByIndex: [Parts]

    /// Creates the set from recorded grants (a later grant for the same type wins).
    public init(_ grants: [Grant] = []) {
        var byType: [ObjectType: Grant] = [:]
        for grant in grants { byType[grant.type] = grant }
        self.grants = byType
        partsByIndex = Self.parts(of: byType)
    }

    private static func parts(of grants: [ObjectType: Grant]) -> [Parts] {
        guard !grants.isEmpty else { return [] }
        var parts = [Parts](repeating: Parts(), count: TypeCatalogue.knownIdentifiers.count)
        for (type, grant) in grants where type.catalogueIndex >= 0 {
            parts[type.catalogueIndex] = Parts(share: grant.share, read: grant.read)
        }
        return parts
    }

    /// Equal grants (the index is derived from them).
    public static func == (lhs: AppGrants, rhs: AppGrants) -> Bool { lhs.grants == rhs.grants }

    /// Hashes the grants.
    public func hash(into hasher: inout Hasher) { hasher.combine(grants) }

    /// The grant for a type; nil when the app was never decided for it.
    public subscript(type: ObjectType) -> Grant? {
        grants[type]
    }

    /// The share part of the type's grant; nil when sharing was never decided (`self[type]?.share`).
    @inline(__always)
    public func share(for type: ObjectType) -> ShareDecision? {
        let index = type.catalogueIndex
        guard index >= 0 else { return grants[type]?.share }
        return index < partsByIndex.count ? partsByIndex[index].share : nil
    }

    /// The read part of the grant of the catalogued type at `index` (`read(for:)` of that type).
    @inline(__always)
    package func read(forCatalogueIndex index: Int) -> ReadDecision? {
        index < partsByIndex.count ? partsByIndex[index].read : nil
    }

    /// The read part of the type's grant; nil when reading was never decided (`self[type]?.read`).
    @inline(__always)
    public func read(for type: ObjectType) -> ReadDecision? {
        let index = type.catalogueIndex
        guard index >= 0 else { return grants[type]?.read }
        return index < partsByIndex.count ? partsByIndex[index].read : nil
    }

    /// Records decisions: a decision's nil share or read part leaves the recorded part as it is.
    ///
    /// A decision with neither part changes nothing (not even the decision time).
    public mutating func apply(_ decisions: [TypeDecision], at micros: Int64, by decidedBy: String) {
        for decision in decisions where decision.share != nil || decision.read != nil {
            var grant = grants[decision.type] ?? Grant(type: decision.type, decidedMicros: micros, decidedBy: decidedBy)
            if let share = decision.share { grant.share = share }
            if let read = decision.read { grant.read = read }
            grant.decidedMicros = micros
            grant.decidedBy = decidedBy
            grants[decision.type] = grant
        }
    }

    /// Forgets the grants of `types` (empty: of every type); returns how many types had grants.
    @discardableResult
    public mutating func revoke(_ types: [ObjectType]) -> Int {
        if types.isEmpty {
            let count = grants.count
            grants.removeAll()
            return count
        }
        var revoked = 0
        for type in Set(types) where grants.removeValue(forKey: type) != nil {
            revoked += 1
        }
        return revoked
    }
}
