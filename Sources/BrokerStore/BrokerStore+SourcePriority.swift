public import BrokerModel

extension BrokerStore {
    /// The source app ids the person ordered for `type`, best first (empty when none were set).
    public func sourcePriority(of type: ObjectType) throws(BrokerError) -> [String] {
        try sourcePriorities.order(of: type.identifier)
    }

    /// Every type with an order set, by type identifier, each with its app ids best first.
    public func allSourcePriorities() throws(BrokerError) -> [(type: ObjectType, appIDs: [String])] {
        try sourcePriorities.all().map { (ObjectType($0.type), $0.appIDs) }
    }

    /// Replaces the order of `type` with `appIDs` (best first; empty clears it). A repeated app id
    /// is INVALID_ARGUMENT. The apps need not be registered or have samples yet.
    public func setSourcePriority(of type: ObjectType, appIDs: [String]) throws(BrokerError) {
        var seen = Set<String>()
        for (index, appID) in appIDs.enumerated() where !seen.insert(appID).inserted {
            throw .invalidArgument("app_ids[\(index)] \"\(appID)\" is listed twice")
        }
        try database.transaction { () throws(BrokerError) in
            try sourcePriorities.replace(type.identifier, with: appIDs)
        }
    }
}
