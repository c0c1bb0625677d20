import BrokerModel
import BrokerWire

extension HealthStore {
    /// What was added to and deleted from the samples of `type` matching `predicate` since `anchor`, as `HKAnchoredObjectQuery`.
    ///
    /// With no anchor: every matching sample the app may read, plus the deletions still remembered.
    /// Pass the returned `newAnchor` next time to get only what changed since. Gathers every page the
    /// broker streams (under flow control) until the last one; there is no deadline. `limit` 0 means no
    /// limit on added samples; quantities come back in `unit` (empty: canonical). An altered anchor, or
    /// one from another app or type, is INVALID_ARGUMENT; an anchor older than the deletions the broker
    /// still remembers is FAILED_PRECONDITION with `anchorExpired` (query again without an anchor).
    /// For a correlation type (`.bloodPressure`, `.food`) the added samples are the correlations with
    /// an object the app may read (`Sample.objects` holds those only) and the deletions those of
    /// correlations it could have seen; `unit` must then be empty.
    public func anchoredChanges(of type: ObjectType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0, unit: String = "") async throws(BrokerError) -> AnchoredChanges {
        let query = AnchoredQuery(type: type, predicate: predicate, anchor: anchor?.bytes ?? [], limit: try wireCount(limit, "limit"), unit: unit)
        let stream = connection.stream(.anchoredQuery(query.proto), timeout: nil, window: SampleSequence.pageWindow)
        var pages = stream.makeAsyncIterator()
        var added: [Sample] = []
        var deleted: [DeletedObject] = []
        var newAnchor: QueryAnchor?
        while let item = try await pages.next() {
            guard case .anchoredPage(let page) = item, newAnchor == nil else { throw .unexpectedResponse("AnchoredQuery") }
            added += page.added
            deleted += page.deletedObjects
            if page.done {
                guard !page.newAnchor.isEmpty else { throw .internal("the broker ended AnchoredQuery with an empty anchor") }
                newAnchor = QueryAnchor(bytes: page.newAnchor)
            }
        }
        guard let newAnchor else { throw .internal("the broker ended AnchoredQuery without its last page") }
        return AnchoredChanges(added: added, deleted: deleted, newAnchor: newAnchor)
    }
}
