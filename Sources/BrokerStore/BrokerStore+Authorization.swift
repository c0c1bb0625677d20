public import BrokerModel

extension BrokerStore {
    /// Every recorded grant, by app id; each app's grants sorted by type identifier (the daemon loads these at start).
    public func allGrants() throws(BrokerError) -> [String: [Grant]] {
        try grants.all()
    }

    /// Stores each grant of `appID` exactly as given, replacing any row for the same type, all in one transaction.
    ///
    /// The caller passes complete, merged values: a nil `share` or `read` is stored as never asked,
    /// not as "keep the old part". Either every grant is written or none is. With duplicate types
    /// in `grants`, the last one wins.
    public func recordGrants(appID: String, grants newGrants: [Grant]) throws(BrokerError) {
        guard !newGrants.isEmpty else { return }
        try database.transaction { () throws(BrokerError) in
            for grant in newGrants {
                try grants.upsert(appID: appID, grant)
            }
        }
    }

    /// Deletes the app's grants for `types` (every grant of the app when `types` is empty); returns the rows deleted.
    ///
    /// Types without a grant are skipped (they count 0). Runs in one transaction.
    @discardableResult
    public func revokeGrants(appID: String, types: [ObjectType]) throws(BrokerError) -> Int {
        guard !types.isEmpty else { return try grants.removeAll(appID: appID) }
        return try database.transaction { () throws(BrokerError) -> Int in
            var removed = 0
            for type in types {
                removed += try grants.remove(appID: appID, type: type)
            }
            return removed
        }
    }

    /// Notes that `appID` asked for authorization at `now` under `appName`.
    ///
    /// The first request keeps its time; the latest request time and the name are replaced.
    public func recordRequest(appID: String, appName: String, now: Int64) throws(BrokerError) {
        try sources.recordRequest(appID: appID, appName: appName, now: now)
    }

    /// Every app that ever asked for authorization or has samples stored, sorted by app id,
    /// registered when it is in the app registry now, with how many samples it has stored.
    public func listSources() throws(BrokerError) -> [Source] {
        try sources.all()
    }

    /// Stores the person's value for the characteristic `type` at `now`, or deletes it when `value` is nil.
    public func setCharacteristic(_ type: ObjectType, value: String?, now: Int64) throws(BrokerError) {
        try characteristics.set(type, value: value, now: now)
    }

    /// Every stored characteristic value, by type (unset types are absent).
    public func allCharacteristics() throws(BrokerError) -> [ObjectType: String] {
        try characteristics.all()
    }
}
