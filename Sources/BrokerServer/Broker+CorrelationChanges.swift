import BrokerCrypto
import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// Streams an AnchoredQuery of a correlation type, as HKAnchoredObjectQuery does for an
    /// HKCorrelationType: the correlations added since the anchor with an object the app may read
    /// (showing only those), the deletions of correlations it could have seen, then the new anchor.
    ///
    /// One store job checks expiry and reads the changes (`BrokerStore.correlationChanges`, which
    /// reads only what the member scopes show); the items then go out under the call's credit.
    /// The anchor's position is the last change the app could see, so it stays the same while only
    /// what it may not see changes. Objects come back in their types' canonical units.
    func handleCorrelationAnchoredQuery(_ query: AnchoredQuery, appID: String, context: CallContext) {
        let scopes: [(type: ObjectType, scope: ReadScope)]
        var after: Int64 = 0
        do throws(BrokerError) {
            try PredicateRules.validate(query.predicate)
            guard query.unit.isEmpty else {
                throw .invalidArgument("\(query.type.identifier) has no unit; leave unit empty (its objects come back in their types' canonical units)")
            }
            scopes = try memberScopes(of: query.type, appID: appID)
            if !query.anchor.isEmpty {
                after = try anchorCodec.decode(query.anchor, appID: appID, type: query.type)
            }
        } catch {
            finish(context, error: error)
            return
        }
        let anchored = after
        let limit = query.limit == 0 ? nil : Int(query.limit)
        let codec = anchorCodec!
        streamOneStoreRead(context, appID: appID, method: "AnchoredQuery", type: query.type, job: { store throws(BrokerError) in
            let through = try store.currentSequence()
            // Expiry looks only at pruned deletions of correlations this app could have seen.
            let pruned = try store.prunedVisibleCorrelationSequence(memberScopes: scopes, appID: appID)
            guard anchored == 0 || anchored >= pruned else {
                throw BrokerError(.anchorExpired, "the deletions this anchor needs are no longer remembered: query again without an anchor")
            }
            return try store.correlationChanges(
                of: query.type, predicate: query.predicate, memberScopes: scopes, appID: appID,
                afterSequence: anchored, throughSequence: through, limit: limit)
        }, items: { page in
            Self.items(
                added: page.added, deleted: page.deleted, done: true,
                anchor: codec.encode(position: page.lastSequence, appID: appID, type: query.type)
            ).map { .anchoredPage($0) }
        })
    }

    /// Whether an observer of correlation type `type` may learn of changes to correlations whose
    /// objects are `objects`, saved by `sourceAppID`: one of them is readable by its member scope.
    func correlationChangeVisible(_ type: ObjectType, objects: [(type: ObjectType, endMicros: Int64)], sourceAppID: String, to appID: String) -> Bool {
        let appGrants = grants[appID] ?? AppGrants()
        return objects.contains { object in
            let scope = AuthorizationPolicy.readScope(for: object.type, grants: appGrants, earliestPermitted: configuration.earliestPermittedMicros)
            return PredicateRules.readable(endMicros: object.endMicros, sourceAppID: sourceAppID, by: appID, scope: scope)
        }
    }

    /// Tells observers of correlation types about new or deleted correlations they could see
    /// (`objects` per correlation: its objects' types and ends).
    func notifyCorrelationObservers(type: ObjectType, changes: [(objects: [(type: ObjectType, endMicros: Int64)], sourceAppID: String)]) {
        guard !changes.isEmpty else { return }
        let now = Microseconds.now()
        for observer in Array(observers.values) where observer.types.contains(type) {
            let visible = changes.contains { correlationChangeVisible(type, objects: $0.objects, sourceAppID: $0.sourceAppID, to: observer.appID) }
            guard visible else { continue }
            observer.pending[type] = now
            pumpObserver(observer)
        }
    }

    /// Whether the app may still read some member type of correlation type `type` (checked again
    /// before an observer's notification goes out).
    func mayReadSomeMember(of type: ObjectType, appID: String) -> Bool {
        let appGrants = grants[appID] ?? AppGrants()
        return TypeCatalogue.correlationMembers(of: type).contains { member in
            AuthorizationPolicy.readScope(for: member, grants: appGrants, earliestPermitted: configuration.earliestPermittedMicros) != .notDetermined
        }
    }
}
