import BrokerModel
import BrokerPolicy
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
    /// Converts quantities to the unit asked for; nil for types without units.
    private let converter: UnitConverter?
    private let descriptor: TypeDescriptor
    private let pageSize: Int
    private var cursor: SampleCursor?
    private var remaining: Int?
    /// Samples queued to the client so far (what the access log counts).
    private var delivered = 0
    /// True once this call's access-log row was written.
    private var logged = false
    private var fetching = false
    private var done = false

    /// A pager for `query` by `appID` on `context`, pages of `pageSize`, quantities shown through `converter`.
    init(broker: Broker, context: CallContext, query: SampleQuery, appID: String, converter: UnitConverter?, descriptor: TypeDescriptor, pageSize: Int) {
        self.broker = broker
        self.context = context
        self.query = query
        self.appID = appID
        self.converter = converter
        self.descriptor = descriptor
        self.pageSize = pageSize
        remaining = query.limit == 0 ? nil : Int(query.limit)
    }

    /// Converted pages read but not yet queued (the connection had no room), as the rows they go
    /// out as, each with its sample count and whether it is the last; every one holds a
    /// store-read slot until it is queued.
    private var ready: [(rows: [Sample], count: Int, last: Bool)] = []

    /// Queues what is ready while there is room, then fetches the next page if none is being
    /// fetched, the call is live, it has credit and the connection a store-read slot.
    func pump() {
        guard let broker, let context, context.isLive, !done else { return }
        while let page = ready.first {
            if page.count > 0 {
                guard broker.send(page: page.rows, on: context) else { return }
                delivered += page.count
            }
            ready.removeFirst()
            broker.endStoreRead(context)
            if page.last {
                done = true
                logOnce()
                broker.endStream(context)
                return
            }
        }
        guard !fetching, !lastFetched, broker.beginStoreRead(context) else { return }
        fetch()
    }

    /// Writes the call's one access-log row: the samples queued to the client. Called when the
    /// stream ends, and when the call ends early (cancelled, timed out, disconnected, failed) with
    /// samples already sent; never twice.
    func logOnce(onlyIfDelivered: Bool = false) {
        guard !logged, let broker, !onlyIfDelivered || delivered > 0 else { return }
        logged = true
        broker.logAccess(appID: appID, operation: "read", method: "Query", type: query.type, count: delivered)
    }

    /// True once the page that ends the query was fetched.
    private var lastFetched = false

    /// Re-checks the scope and asks the worker for the page after `cursor` (a slot is already taken).
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

    /// Handles a fetched page: starts the next fetch when credit allows, then converts this one and
    /// queues it (or keeps it ready until the connection has room).
    private func received(_ result: Result<SamplePageResult, BrokerError>) {
        guard let broker, let context, context.isLive, !done else { return }
        broker.noteStoreResult(result)
        do throws(BrokerError) {
            let page = try result.get()
            cursor = page.next
            if let left = remaining { remaining = left - page.samples.count }
            let last = page.next == nil || remaining == 0
            lastFetched = last
            // This page takes one credit; fetch ahead only if another is left for the next (and
            // the connection has room and a second slot).
            if !last, context.credit > UInt32(ready.count + 1), broker.beginStoreRead(context) { fetch() }
            // The store's rows go out as they are, written in place by the generated row writer
            // (`Proto.SampleFields`): no `Proto.Sample` per row, no model stream item or frame in
            // between. Only rows whose quantity is not in the unit asked for are replaced.
            var rows = page.samples
            if let converter { try SampleValidator.present(&rows, with: converter, descriptor: descriptor) }
            ready.append((rows, rows.count, last))
            pump()
        } catch {
            done = true
            broker.finish(context, error: error)
        }
    }
}
