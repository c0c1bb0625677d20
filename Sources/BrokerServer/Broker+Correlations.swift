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
        var pending: [[Sample]] = []
        var delivered = 0
        var logged = false
        var fetched = false
        let log = { [weak self] in
            guard let self, !logged else { return }
            logged = true
            self.logAccess(appID: appID, operation: "read", method: "Query", type: query.type, count: delivered)
        }
        context.pump = { [weak self, weak context] in
            guard let self, let context, context.isLive, fetched else { return }
            while let page = pending.first {
                var message = Proto.SamplePage()
                message.samples = page.map(\.proto)
                var item = Proto.StreamItem()
                item.item = .samples(message)
                guard self.send(item, on: context) else { return }
                delivered += page.count
                pending.removeFirst()
            }
            self.endStoreRead(context)
            log()
            self.endStream(context)
        }
        context.onEnd = {
            if delivered > 0 { log() }
        }
        guard beginStoreRead(context) else {
            // No slot now: the first pump after one frees up starts the read.
            let start = context.pump
            context.pump = { [weak self, weak context] in
                guard let self, let context, context.isLive else { return }
                guard self.beginStoreRead(context) else { return }
                context.pump = start
                self.readCorrelations(query, scopes: scopes, appID: appID, limit: limit, pageSize: pageSize, context: context) { pages in
                    pending = pages
                    fetched = true
                }
            }
            return
        }
        readCorrelations(query, scopes: scopes, appID: appID, limit: limit, pageSize: pageSize, context: context) { pages in
            pending = pages
            fetched = true
        }
    }

    /// Runs the store read of a correlation query (a slot is held), hands its pages to `received`
    /// and pumps the call.
    private func readCorrelations(
        _ query: SampleQuery, scopes: [(type: ObjectType, scope: ReadScope)], appID: String, limit: Int?, pageSize: Int,
        context: CallContext, received: @escaping ([[Sample]]) -> Void
    ) {
        worker.submit({ store throws(BrokerError) in
            try store.correlations(of: query.type, predicate: query.predicate, memberScopes: scopes, appID: appID, sort: query.sort, limit: limit)
        }) { [weak self, weak context] result in
            guard let self, let context, context.isLive else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let correlations):
                var pages: [[Sample]] = []
                var index = 0
                while index < correlations.count {
                    let end = min(index + pageSize, correlations.count)
                    pages.append(Array(correlations[index..<end]))
                    index = end
                }
                received(pages)
                context.pump?()
            case .failure(let error):
                self.endStoreRead(context)
                self.finish(context, error: error)
            }
        }
    }
}
