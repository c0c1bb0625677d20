import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerWire

extension Broker {
    /// The types a save needs share permission for: a correlation's members' types, never the
    /// correlation type itself (as in HealthKit, which refuses to authorize correlation types).
    static func shareTypes(of samples: [Sample]) -> Set<ObjectType> {
        var types = Set<ObjectType>()
        for sample in samples {
            if case .correlation(let members) = sample.value {
                for member in members { types.insert(member.type) }
            } else {
                types.insert(sample.type)
            }
        }
        return types
    }

    /// The app's read scope for each member type of correlation type `type` (not determined where
    /// it never asked); NOT_DETERMINED when it never asked to read any of them.
    func memberScopes(of type: ObjectType, appID: String) throws(BrokerError) -> [(type: ObjectType, scope: ReadScope)] {
        var scopes: [(type: ObjectType, scope: ReadScope)] = []
        for member in TypeCatalogue.correlationMembers(of: type) {
            let scope: ReadScope
            do throws(BrokerError) {
                scope = try readScope(of: member, appID: appID)
            } catch {
                scope = .notDetermined
            }
            scopes.append((member, scope))
        }
        guard scopes.contains(where: { $0.scope != .notDetermined }) else {
            throw BrokerError(.authorizationNotDetermined, "the app never asked to read any member type of \(type.identifier)")
        }
        return scopes
    }

    /// Streams a Query of a correlation type: the correlations holding at least one object the app
    /// may read, each showing only those (HKCorrelationQuery's rule), in the query's order and limit.
    ///
    /// One store job reads them all (`BrokerStore.correlations`, which reads only the links the
    /// member scopes show); the pages then go out under the call's credit. Objects come back in
    /// their types' canonical units (the query's unit must be empty).
    func handleCorrelationQuery(_ query: SampleQuery, appID: String, context: CallContext) {
        let scopes: [(type: ObjectType, scope: ReadScope)]
        do throws(BrokerError) {
            try PredicateRules.validate(query.predicate)
            guard query.unit.isEmpty else {
                throw .invalidArgument("\(query.type.identifier) has no unit; leave unit empty (its objects come back in their types' canonical units)")
            }
            guard query.pageSize <= Self.maxPageSize else { throw .invalidArgument("page_size must be at most \(Self.maxPageSize)") }
            scopes = try memberScopes(of: query.type, appID: appID)
        } catch {
            finish(context, error: error)
            return
        }
        let pageSize = query.pageSize == 0 ? Self.defaultPageSize : Int(query.pageSize)
        let limit = query.limit == 0 ? nil : Int(query.limit)
        streamOneStoreRead(context, appID: appID, method: "Query", type: query.type, job: { store throws(BrokerError) in
            try store.correlations(of: query.type, predicate: query.predicate, memberScopes: scopes, appID: appID, sort: query.sort, limit: limit)
        }, items: { correlations in
            stride(from: 0, to: correlations.count, by: pageSize).map { start in
                .samples(Array(correlations[start..<min(start + pageSize, correlations.count)]))
            }
        })
    }
}
