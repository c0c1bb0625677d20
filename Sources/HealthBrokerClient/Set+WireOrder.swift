import BrokerCore

extension Set<ObjectType> {
    /// The types sorted by identifier, so the same set always makes the same request.
    package var wireOrder: [ObjectType] { count < 2 ? Array(self) : sorted() }
}
