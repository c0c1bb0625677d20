import BrokerCrypto
import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerStore
import BrokerWire

extension Broker {
    /// Samples per streamed page when the client does not say.
    static let defaultPageSize = 512
    /// The largest page a client may ask for.
    static let maxPageSize = 4_096

    /// Streams a clamped query page by page (`QueryPager`); the scope is checked again before every page.
    func handleQuery(_ query: SampleQuery, context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        let descriptor: TypeDescriptor
        let converter: UnitConverter?
        do throws(BrokerError) {
            descriptor = try sampleDescriptor(query.type)
            if descriptor.kind == .correlation {
                handleCorrelationQuery(query, appID: appID, context: context)
                return
            }
            try PredicateRules.validate(query.predicate)
            converter = try resultConverter(query.unit, descriptor: descriptor)
            guard query.pageSize <= Self.maxPageSize else { throw .invalidArgument("page_size must be at most \(Self.maxPageSize)") }
            _ = try readScope(of: query.type, appID: appID)
        } catch {
            finish(context, error: error)
            return
        }
        let pageSize = query.pageSize == 0 ? Self.defaultPageSize : Int(query.pageSize)
        let pager = QueryPager(
            broker: self, context: context, query: query, appID: appID,
            converter: converter, descriptor: descriptor, pageSize: pageSize)
        context.pump = { pager.pump() }
        // A stream that ends early still leaves its row for what it sent (the pump is gone by then).
        context.onEnd = { pager.logOnce(onlyIfDelivered: true) }
        pager.pump()
    }

    /// Streams what changed since an anchor (all, without one), then the new anchor.
    func handleAnchoredQuery(_ query: AnchoredQuery, context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        let descriptor: TypeDescriptor
        let converter: UnitConverter?
        var after: Int64 = 0
        let scope: ReadScope
        do throws(BrokerError) {
            descriptor = try sampleDescriptor(query.type)
            if descriptor.kind == .correlation {
                handleCorrelationAnchoredQuery(query, appID: appID, context: context)
                return
            }
            try PredicateRules.validate(query.predicate)
            converter = try resultConverter(query.unit, descriptor: descriptor)
            scope = try readScope(of: query.type, appID: appID)
            if !query.anchor.isEmpty {
                after = try anchorCodec.decode(query.anchor, appID: appID, type: query.type)
            }
        } catch {
            finish(context, error: error)
            return
        }
        let anchored = after
        // Expiry looks only at pruned deletions this app could have seen: other apps' pruning,
        // outside its scope, must not show.
        worker.submit({ store throws(BrokerError) in
            (try store.currentSequence(), try store.prunedVisibleSequence(type: query.type, scope: scope, appID: appID))
        }) { [weak self, weak context] result in
            guard let self, let context, context.isLive else { return }
            self.noteStoreResult(result)
            switch result {
            case .failure(let error):
                self.finish(context, error: error)
            case .success(let (through, pruned)):
                guard anchored == 0 || anchored >= pruned else {
                    self.finish(context, error: BrokerError(.anchorExpired, "the deletions this anchor needs are no longer remembered: query again without an anchor"))
                    return
                }
                self.streamChanges(query, appID: appID, converter: converter, descriptor: descriptor, after: anchored, through: through, context: context)
            }
        }
    }

    /// Changes one store read may return for a limited reader, sent as items of `defaultPageSize`.
    ///
    /// A limited reader's changes come from the end-date range at or after its floor, sorted by
    /// seq: each read walks every visible row in that range, however few it returns. Reading many
    /// pages' worth at once keeps a long first sync from walking them once per 512 changes.
    static let limitedChangesBatch = 8 * defaultPageSize

    private func streamChanges(_ query: AnchoredQuery, appID: String, converter: UnitConverter?, descriptor: TypeDescriptor, after: Int64, through: Int64, context: CallContext) {
        var position = after
        var remaining: Int? = query.limit == 0 ? nil : Int(query.limit)
        /// Added samples queued to the client, and whether the call's access-log row was written.
        var delivered = 0
        var logged = false
        var fetching = false
        /// Items read but not yet sent (credit ran out); the last one may be the final item.
        var pending: [AnchoredPage] = []
        let codec = anchorCodec!
        let anchor = { (position: Int64) in codec.encode(position: position, appID: appID, type: query.type) }
        context.pump = { [weak self, weak context] in
            guard let self, let context, context.isLive else { return }
            while let item = pending.first {
                guard self.send(.anchoredPage(item), on: context) else { return }
                delivered += item.added.count
                pending.removeFirst()
                if pending.isEmpty { self.endStoreRead(context) }
                if item.done {
                    logged = true
                    self.logAccess(appID: appID, operation: "read", method: "AnchoredQuery", type: query.type, count: delivered)
                    self.endStream(context)
                    return
                }
            }
            guard pending.isEmpty, !fetching, self.beginStoreRead(context) else { return }
            let scope: ReadScope
            do throws(BrokerError) {
                scope = try self.readScope(of: query.type, appID: appID)
            } catch {
                self.finish(context, error: error)
                return
            }
            fetching = true
            let batch = if case .from(let floor) = scope, floor > .min { Self.limitedChangesBatch } else { Self.defaultPageSize }
            let pageSize = min(batch, remaining ?? batch)
            let from = position
            self.worker.submit({ store throws(BrokerError) in
                try store.changes(type: query.type, predicate: query.predicate, scope: scope, appID: appID, afterSequence: from, throughSequence: through, pageSize: pageSize)
            }) { [weak self, weak context] result in
                fetching = false
                guard let self, let context, context.isLive else { return }
                self.noteStoreResult(result)
                do throws(BrokerError) {
                    let page = try result.get()
                    // The store's rows go out as they are (the row writer writes them in place);
                    // only rows whose quantity is not in the unit asked for are replaced.
                    var samples = page.added
                    if let converter { try SampleValidator.present(&samples, with: converter, descriptor: descriptor) }
                    position = page.lastSequence
                    if let left = remaining { remaining = left - samples.count }
                    let done = !page.hasMore || remaining == 0
                    // The position is the last change this app could see, so the anchor stays the
                    // same while only what it may not see changes.
                    // The slot stays taken until these items are all queued.
                    pending = Self.items(added: samples, deleted: page.deleted, done: done, anchor: done ? anchor(position) : [])
                    context.pump?()
                } catch {
                    self.finish(context, error: error)
                }
            }
        }
        // A stream that ends early still leaves its row for what it sent.
        context.onEnd = { [weak self] in
            guard let self, !logged, delivered > 0 else { return }
            logged = true
            self.logAccess(appID: appID, operation: "read", method: "AnchoredQuery", type: query.type, count: delivered)
        }
        context.pump?()
    }

    /// One read's changes as stream items of at most `defaultPageSize` changes each (added first, as
    /// within a page their order does not matter: no (source, uuid) is both added and deleted); the
    /// last item carries `done` and the anchor. An empty read is one empty item.
    static func items(added: [Sample], deleted: [ChangePage.Deletion], done: Bool, anchor: [UInt8]) -> [AnchoredPage] {
        var items: [AnchoredPage] = []
        var (a, d) = (0, 0)
        repeat {
            let takeAdded = min(defaultPageSize, added.count - a)
            let takeDeleted = min(defaultPageSize - takeAdded, deleted.count - d)
            let gone = deleted[d..<(d + takeDeleted)]
            items.append(AnchoredPage(
                added: Array(added[a..<(a + takeAdded)]), deletedUUIDs: gone.map(\.uuid),
                deletedSourceAppIDs: gone.map(\.sourceAppID)))
            a += takeAdded
            d += takeDeleted
        } while a < added.count || d < deleted.count
        items[items.count - 1].done = done
        items[items.count - 1].newAnchor = anchor
        return items
    }

    /// Sums or averages/min/max over the range or per calendar interval, computed in SQLite, clamped.
    /// A cumulative type's sums merge overlapping sources by the person's priority, over the rows
    /// the scope shows (so a read-denied app's, which sees one source, never merge).
    func handleStatistics(_ query: StatisticsQuery, context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        let descriptor: TypeDescriptor
        let converter: UnitConverter
        let scope: ReadScope
        let boundaries: [Int64]
        do throws(BrokerError) {
            (descriptor, converter) = try validatedStatistics(query)
            scope = try readScope(of: query.type, appID: appID)
            boundaries = try StatisticsRules.boundaries(for: query, fallbackStart: configuration.earliestPermittedMicros, fallbackEnd: Microseconds.now() + 1)
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.statistics(
                type: query.type, predicate: query.predicate, scope: scope, appID: appID, boundaries: boundaries,
                mergeSources: descriptor.aggregation == .cumulative)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            do throws(BrokerError) {
                let buckets = try result.get().filter { $0.sampleCount > 0 }
                guard !buckets.isEmpty else { throw BrokerError(.noData, "no \(query.type.identifier) samples in the range") }
                let shown = try buckets.map { bucket throws(BrokerError) in
                    try self.present(bucket, options: query.options, converter: converter)
                }
                self.reply(context, .statistics(StatisticsResult(unit: converter.unit, buckets: shown).proto))
                // Samples that contributed, in the app's own scope; after the reply, as for a query.
                let contributed = shown.reduce(0) { $0 &+ $1.sampleCount }
                self.logAccess(appID: appID, operation: "read", method: "Statistics", type: query.type, count: Int(clamping: contributed))
            } catch {
                self.finish(context, error: error)
            }
        }
    }

    func present(_ bucket: StatisticsBucket, options: StatisticsOptions, converter: UnitConverter) throws(BrokerError) -> StatisticsBucket {
        func convert(_ value: Double?) -> Double? {
            value.map(converter.fromCanonical)
        }
        return StatisticsBucket(
            startMicros: bucket.startMicros, endMicros: bucket.endMicros, sampleCount: bucket.sampleCount,
            sum: options.contains(.sum) ? convert(bucket.sum) : nil,
            average: options.contains(.average) ? convert(bucket.average) : nil,
            minimum: options.contains(.minimum) ? convert(bucket.minimum) : nil,
            maximum: options.contains(.maximum) ? convert(bucket.maximum) : nil)
    }

    /// Opens an Observe stream for types the app may read (never-asked types are refused).
    func handleObserve(_ types: [ObjectType], context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        do throws(BrokerError) {
            guard !types.isEmpty else { throw .invalidArgument("types must not be empty") }
            for type in types {
                if try sampleDescriptor(type, field: "types").kind == .correlation {
                    // As for a Query of it: the app must have asked to read one of its member types.
                    _ = try memberScopes(of: type, appID: appID)
                    continue
                }
                _ = try readScope(of: type, appID: appID)
            }
        } catch {
            finish(context, error: error)
            return
        }
        let observer = SampleObserver(context: context, appID: appID, types: Set(types))
        let key = ObjectIdentifier(context)
        observers[key] = observer
        context.pump = { [weak self, weak observer] in
            guard let self, let observer else { return }
            self.pumpObserver(observer)
        }
        context.onEnd = { [weak self] in self?.observers[key] = nil }
    }

    /// Streams every stored sample (of a type, of an app) for `healthctl export`: the samples, then
    /// the correlations, each with its objects (which the samples part then leaves out when no type
    /// is given; a member type's export holds them as samples of it).
    func handleExport(type: ObjectType?, appID: String?, context: CallContext) {
        if let type {
            do throws(BrokerError) { _ = try sampleDescriptor(type) } catch {
                finish(context, error: error)
                return
            }
        }
        var position: Int64 = 0
        /// Whether the samples are done and the correlations are being read.
        var correlations = false
        var fetching = false
        /// A page read but not yet queued (no room); it holds its store-read slot until queued.
        var ready: [Sample]?
        context.pump = { [weak self, weak context] in
            guard let self, let context, context.isLive, !fetching else { return }
            if let page = ready {
                guard self.send(.samples(page), on: context) else { return }
                ready = nil
                self.endStoreRead(context)
            }
            guard self.beginStoreRead(context) else { return }
            fetching = true
            let from = position
            let readingCorrelations = correlations
            self.worker.submit({ store throws(BrokerError) in
                readingCorrelations
                    ? try store.exportCorrelationPage(type: type, appID: appID, afterSequence: from, pageSize: Self.defaultPageSize)
                    : try store.exportPage(type: type, appID: appID, afterSequence: from, pageSize: Self.defaultPageSize)
            }) { [weak self, weak context] result in
                fetching = false
                guard let self, let context, context.isLive else { return }
                switch result {
                case .success(let page):
                    if page.samples.isEmpty {
                        self.endStoreRead(context)
                        guard readingCorrelations else {
                            correlations = true
                            position = 0
                            context.pump?()
                            return
                        }
                        self.endStream(context)
                        return
                    }
                    position = page.lastSequence
                    ready = page.samples
                    context.pump?()
                case .failure(let error):
                    self.finish(context, error: error)
                }
            }
        }
        context.pump?()
    }

    /// The access log, newest first.
    func handleAccessLog(appID: String?, limit: UInt32, context: CallContext) {
        let count = limit == 0 ? 1_000 : min(Int(limit), 100_000)
        worker.submit({ store throws(BrokerError) in try store.accessLog(appID: appID, limit: count) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let entries): self.reply(context, .adminAccessLog(.with { $0.entries = entries.map(\.proto) }))
            case .failure(let error): self.finish(context, error: error)
            }
        }
    }

    /// Checks a statistics query the same way for an app and for the person (AdminStatistics):
    /// its type, predicate and options, and the unit its results come back in.
    func validatedStatistics(_ query: StatisticsQuery) throws(BrokerError) -> (TypeDescriptor, UnitConverter) {
        let descriptor = try sampleDescriptor(query.type)
        try PredicateRules.validate(query.predicate)
        try StatisticsRules.validate(query, descriptor: descriptor)
        guard let converter = try resultConverter(query.unit, descriptor: descriptor) else {
            throw .invalidArgument("\(query.type.identifier) is not a quantity type")
        }
        return (descriptor, converter)
    }

    /// The converter to the unit results come back in: "" → canonical; nil for non-quantity types, which take no unit.
    func resultConverter(_ unit: String, descriptor: TypeDescriptor) throws(BrokerError) -> UnitConverter? {
        guard descriptor.kind == .quantity else {
            guard unit.isEmpty else { throw .invalidArgument("\(descriptor.type.identifier) has no unit; leave unit empty") }
            return nil
        }
        return try Units.resultConverter(unit, descriptor: descriptor)
    }
}
