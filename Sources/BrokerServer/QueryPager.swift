import BrokerCore
import BrokerStore
import BrokerWire

/// Streams one Query's pages: fetches each from the store worker, converts it to the asked unit and
/// sends it, with the read scope checked again before every fetch.
///
/// While the loop converts and sends a page, the worker already fetches the next one when the
/// client's credit covers both, so store and loop work side by side instead of taking turns.
/// Loop thread only. The call's `pump` owns the pager; the pager holds the broker and the call weakly.
final class QueryPager {
    private weak var broker: Broker?
    private weak var context: CallContext?
    private let query: SampleQuery
    private let appID: String
    private let unit: String
    private let dimension: UnitDimension
    private let pageSize: Int
    private var cursor: SampleCursor?
    private var remaining: Int?
    private var sent = 0
    private var fetching = false
    private var done = false

    /// A pager for `query` by `appID` on `context`, pages of `pageSize`, values in `unit`.
    init(broker: Broker, context: CallContext, query: SampleQuery, appID: String, unit: String, dimension: UnitDimension, pageSize: Int) {
        self.broker = broker
        self.context = context
        self.query = query
        self.appID = appID
        self.unit = unit
        self.dimension = dimension
        self.pageSize = pageSize
        remaining = query.limit == 0 ? nil : Int(query.limit)
    }

    /// Fetches the next page if none is being fetched, the call is live and it has credit.
    func pump() {
        guard let context, context.isLive, !fetching, !done, context.credit > 0 else { return }
        fetch()
    }

    /// Re-checks the scope and asks the worker for the page after `cursor`.
    private func fetch() {
        guard let broker, let context else { return }
        let scope: ReadScope
        do throws(BrokerError) {
            scope = try broker.readScope(of: query.type, appID: appID)
        } catch {
            done = true
            broker.finish(context, error: error)
            return
        }
        fetching = true
        let request = SamplePageRequest(
            type: query.type, predicate: query.predicate, scope: scope, appID: appID, sort: query.sort,
            pageSize: min(pageSize, remaining ?? pageSize), after: cursor, limit: remaining)
        broker.worker.submit({ store throws(BrokerError) in try store.samplePage(request) }) { [self] result in
            self.fetching = false
            self.received(result)
        }
    }

    /// Handles a fetched page: starts the next fetch when credit allows, then converts and sends this one.
    private func received(_ result: Result<SamplePageResult, BrokerError>) {
        guard let broker, let context, context.isLive, !done else { return }
        broker.noteStoreResult(result)
        do throws(BrokerError) {
            let page = try result.get()
            sent += page.samples.count
            cursor = page.next
            if let left = remaining { remaining = left - page.samples.count }
            let last = page.next == nil || remaining == 0
            // This page takes one credit; fetch ahead only if another is left for the next.
            if !last, context.credit > 1 { fetch() }
            let samples = try page.samples.map { sample throws(BrokerError) in
                try SampleValidator.presenting(sample, in: unit, dimension: dimension)
            }
            if !samples.isEmpty { broker.send(.samples(samples), on: context) }
            if last {
                done = true
                broker.logAccess(appID: appID, operation: "read", type: query.type, count: sent)
                broker.endStream(context)
            } else {
                pump()
            }
        } catch {
            done = true
            broker.finish(context, error: error)
        }
    }
}
