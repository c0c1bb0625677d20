import BrokerModel

extension Set<ObjectType> {
    /// The types sorted by identifier, so the same set always makes the same request.
    package var wireOrder: [ObjectType] {
        // One type (the usual question) skips the sort and the generic copy of the set.
        if count < 2 { return first.map { [$0] } ?? [] }
        return sorted()
    }
}
