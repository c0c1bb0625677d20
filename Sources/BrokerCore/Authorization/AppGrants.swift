/// One app's recorded grants, by type: the in-memory copy the loop answers look-ups from.
public struct AppGrants: Sendable, Hashable {
    /// The grant of each type the app was ever decided for.
    public var grants: [ObjectType: Grant]

    /// Creates the set from recorded grants (a later grant for the same type wins).
    public init(_ grants: [Grant] = []) {
        var byType: [ObjectType: Grant] = [:]
        for grant in grants { byType[grant.type] = grant }
        self.grants = byType
    }

    /// The grant for a type; nil when the app was never decided for it.
    public subscript(type: ObjectType) -> Grant? {
        grants[type]
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
