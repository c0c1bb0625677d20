public import BrokerModel
public import BrokerPolicy

extension BrokerStore {
    /// Saves a batch of validated, canonical samples as `sourceAppID`, all or nothing, in one transaction.
    ///
    /// A sample's identity is (source app, uuid): each app has its own uuid namespace, so another
    /// app's sample under the same uuid is a different sample and never conflicts (nor can a save
    /// tell an app that it exists). A uuid the app already stored with the same canonical content
    /// (type, dates, value, metadata) counts as unchanged; with other content the batch fails with
    /// `ALREADY_EXISTS` naming "samples[i]". Values the store cannot keep exactly (an empty uuid,
    /// start after end, a non-finite number, workout energy not in kcal or distance not in m) are
    /// `INVALID_ARGUMENT` naming the index. Writes one "write" access-log row per type in the batch,
    /// counting the newly saved samples (0 for an all-unchanged retry).
    public func saveSamples(_ samples: [Sample], sourceAppID: String, now: Int64) throws(BrokerError) -> SaveOutcome {
        try saveSampleGroups([SaveRequest(samples: samples, sourceAppID: sourceAppID)], now: now)[0].get()
    }

    /// Saves several batches in one transaction (group commit), each all or nothing on its own.
    ///
    /// Each batch gets exactly the result `saveSamples` would give it: a batch that fails is rolled
    /// back to a savepoint and leaves the others alone. One commit makes them all durable at once,
    /// so concurrent savers share its cost; if that commit fails, every batch fails with its error.
    public func saveSampleGroups(_ requests: [SaveRequest], now: Int64) throws(BrokerError) -> [Result<SaveOutcome, BrokerError>] {
        var prepared: [Result<PreparedSave, BrokerError>] = []
        for request in requests {
            do throws(BrokerError) {
                prepared.append(.success(try prepareSave(request)))
            } catch {
                prepared.append(.failure(error))
            }
        }
        guard prepared.contains(where: { if case .success(let save) = $0 { !save.rows.samples.isEmpty } else { false } }) else {
            return prepared.map { result in result.map { _ in SaveOutcome.nothing } }
        }
        return try database.transaction { () throws(BrokerError) -> [Result<SaveOutcome, BrokerError>] in
            var results: [Result<SaveOutcome, BrokerError>] = []
            for entry in prepared {
                switch entry {
                case .failure(let error):
                    results.append(.failure(error))
                case .success(let save) where save.rows.samples.isEmpty:
                    results.append(.success(SaveOutcome.nothing))
                case .success(let save):
                    if requests.count == 1 {
                        results.append(.success(try apply(save, now: now)))
                        continue
                    }
                    try database.executeReusing("SAVEPOINT save_group_entry")
                    do throws(BrokerError) {
                        let outcome = try apply(save, now: now)
                        try database.executeReusing("RELEASE save_group_entry")
                        results.append(.success(outcome))
                    } catch {
                        // Some errors (a full disk, I/O) make SQLite roll back the whole transaction:
                        // then every batch of the group fails with this error.
                        guard database.isInTransaction else { throw error }
                        try database.executeReusing("ROLLBACK TO save_group_entry")
                        try database.executeReusing("RELEASE save_group_entry")
                        results.append(.failure(error))
                    }
                }
            }
            return results
        }
    }

    /// Takes a batch's contents and assigns its codes (outside any transaction).
    private func prepareSave(_ request: SaveRequest) throws(BrokerError) -> PreparedSave {
        let samples = request.samples
        let contents = try request.contents.get()
        // Codes are assigned before the transaction (each in its own autocommit), never inside it.
        let appCode = samples.isEmpty ? 0 : try sampleTable.apps.assign(request.sourceAppID)
        var typeCodes: [Int64] = []
        typeCodes.reserveCapacity(samples.count)
        var last: (type: ObjectType, code: Int64)?
        for sample in samples {
            if let last, last.type == sample.type {
                typeCodes.append(last.code)
                continue
            }
            let code = try sampleTable.types.assign(sample.type.identifier)
            last = (sample.type, code)
            typeCodes.append(code)
        }
        var correlationTypeCodes: [Int64] = []
        for correlation in request.correlations {
            correlationTypeCodes.append(try sampleTable.types.assign(correlation.sample.type.identifier))
        }
        return PreparedSave(
            rows: SampleTable.NewRows(samples: samples, contents: contents, typeCodes: typeCodes),
            sourceAppID: request.sourceAppID, appCode: appCode, method: request.method, batchID: request.batchID,
            correlations: request.correlations, correlationTypeCodes: correlationTypeCodes)
    }

    /// Writes a prepared batch inside the caller's transaction.
    private func apply(_ save: PreparedSave, now: Int64) throws(BrokerError) -> SaveOutcome {
        let rows = save.rows
        let samples = rows.samples
        let sourceAppID = save.sourceAppID
        let appCode = save.appCode
        var sequence = try sequenceTable.current().last
        let firstSequence = sequence
        var saved: [Int] = []
        saved.reserveCapacity(samples.count)
        var unchanged = 0
        var tally = TypeTally()
        for sample in samples { tally.add(sample.type) }
        var long: [Int] = []
        // The seq each row of the batch was inserted as (0: not inserted, already stored), kept
        // only when correlations link members: a member inserted here needs no lookup by uuid.
        var rowSequences: [Int64] = save.correlations.isEmpty ? [] : Array(repeating: 0, count: samples.count)
        func record(_ index: Int, sequence rowSequence: Int64) {
            if !rowSequences.isEmpty { rowSequences[index] = rowSequence }
            let duration = Self.duration(samples[index])
            tally.add(samples[index].type, count: 1, duration: duration)
            if duration > LongSpanTable.threshold { long.append(index) }
            saved.append(index)
        }
        /// Adds row `index` alone: a uuid already stored with the same content counts as unchanged.
        func addSingle(_ index: Int) throws(BrokerError) {
            let sample = samples[index]
            let content = rows.contents[index]
            let inserted = try sampleTable.add(rows, at: index, appCode: appCode, sequence: sequence + 1, now: now)
            if !inserted, let existing = try sampleTable.sample(appCode: appCode, uuid: sample.uuid) {
                let stored = try SampleContent(existing, sourceAppID: existing.sourceAppID)
                let storedEncoding = stored.encoding(of: existing, sourceAppID: existing.sourceAppID)
                guard storedEncoding == content.encoding(of: sample, sourceAppID: sourceAppID) else {
                    throw .alreadyExists("samples[\(index)]: this app already saved a sample with uuid \"\(sample.uuid)\" with other content")
                }
                unchanged += 1
                return
            }
            guard inserted else { throw .internal("samples[\(index)]: uuid \"\(sample.uuid)\" was neither inserted nor found") }
            sequence += 1
            record(index, sequence: sequence)
        }
        /// Adds rows `range` in chunks of `SampleTable.chunkSizes[level]`; what does not fill one, or
        /// a chunk that did not go in whole (a uuid already stored or repeated), goes to the next
        /// smaller size, and past the smallest row by row.
        func add(_ range: Range<Int>, level: Int) throws(BrokerError) {
            guard level < SampleTable.chunkSizes.count else {
                for index in range { try addSingle(index) }
                return
            }
            let size = SampleTable.chunkSizes[level]
            var index = range.lowerBound
            while range.upperBound - index >= size {
                let chunk = index..<(index + size)
                if try addChunk(rows, range: chunk, appCode: appCode, firstSequence: sequence + 1, now: now) {
                    for row in chunk { record(row, sequence: sequence + 1 + Int64(row - chunk.lowerBound)) }
                    sequence += Int64(size)
                } else {
                    try add(chunk, level: level + 1)
                }
                index += size
            }
            if index < range.upperBound { try add(index..<range.upperBound, level: level + 1) }
        }
        try add(0..<samples.count, level: 0)
        var correlationsSaved: [Sample] = []
        if !save.correlations.isEmpty {
            let (newCorrelations, sameCorrelations) = try saveCorrelations(
                save.correlations, typeCodes: save.correlationTypeCodes, rows: rows, rowSequences: rowSequences, appCode: appCode,
                sourceAppID: sourceAppID, method: save.method, batchID: save.batchID, now: now, sequence: &sequence)
            correlationsSaved = newCorrelations
            unchanged += sameCorrelations
        }
        try addToRollups(rows, saved: saved, appCode: appCode)
        for entry in tally.entries where entry.count > 0 {
            try spanTable.raise(entry.type, to: entry.longest)
            guard let typeCode = try sampleTable.types.code(of: entry.type.identifier) else {
                throw .internal("saved samples of \(entry.type.identifier) have no type code")
            }
            try appSpanTable.raise(appCode: appCode, typeCode: typeCode, to: entry.longest)
        }
        for index in long {
            try longSpans.note(typeCode: rows.typeCodes[index], end: samples[index].endMicros, duration: Self.duration(samples[index]))
        }
        if sequence != firstSequence { try sequenceTable.setLast(sequence) }
        for entry in tally.entries {
            try accessLogTable.append(
                appID: sourceAppID, operation: "write", method: save.method, type: entry.type, count: entry.count, now: now,
                batchID: save.batchID)
        }
        return SaveOutcome(
            unchanged: unchanged, savedIndexes: saved, of: samples, sourceAppID: sourceAppID, createdMicros: now,
            newCorrelations: correlationsSaved)
    }

    /// Inserts rows `range` in one statement inside a savepoint; true when every row went in.
    /// Otherwise (a uuid already stored or repeated, or an error) the chunk is rolled back and false
    /// returned: the caller then adds the rows in smaller chunks and finally one by one, which sorts
    /// duplicates out and reports errors by row.
    private func addChunk(_ rows: SampleTable.NewRows, range: Range<Int>, appCode: Int64, firstSequence: Int64, now: Int64) throws(BrokerError) -> Bool {
        try database.executeReusing("SAVEPOINT sample_chunk")
        let inserted: Int
        do throws(BrokerError) {
            inserted = try sampleTable.addChunk(rows, range: range, appCode: appCode, firstSequence: firstSequence, now: now)
        } catch {
            guard database.isInTransaction else { throw error }
            inserted = -1
        }
        if inserted == range.count {
            try database.executeReusing("RELEASE sample_chunk")
            return true
        }
        try database.executeReusing("ROLLBACK TO sample_chunk")
        try database.executeReusing("RELEASE sample_chunk")
        return false
    }

    /// Deletes `appID`'s samples with `uuids` in one transaction; returns what was deleted.
    ///
    /// uuids are looked up in the app's own namespace only (a sample's identity is (source app,
    /// uuid)): a uuid the app does not hold — never stored, already deleted, or another app's — is
    /// skipped exactly alike, so a delete never reveals what other apps store. Repeats are skipped.
    /// Each deletion leaves a tombstone; one "delete" access-log row is written per type deleted from.
    public func deleteSamples(uuids: [String], appID: String, now: Int64) throws(BrokerError) -> [DeletedSample] {
        guard !uuids.isEmpty, let appCode = try sampleTable.apps.code(of: appID) else { return [] }
        // Located before any write transaction (this store has the only writer): a delete that
        // finds none of the app's own samples opens none, whatever the uuids are elsewhere.
        var found: [(sequence: Int64, sample: DeletedSample)] = []
        var seen = Set<String>()
        for uuid in uuids where seen.insert(uuid).inserted {
            guard let location = try sampleTable.locate(appCode: appCode, uuid: uuid) else { continue }
            found.append(location)
        }
        // A correlation's uuid deletes the correlation; its members stay unless their uuids are given
        // too. A member's uuid deletes the member and the correlation holding it (`remove`).
        let correlations = try locateCorrelations(uuids: uuids, appCode: appCode)
        guard !found.isEmpty || !correlations.isEmpty else { return [] }
        return try reclaiming { () throws(BrokerError) in try database.transaction { () throws(BrokerError) -> [DeletedSample] in
            try removeCorrelations(correlations, appID: appID, now: now) + (try remove(found, appID: appID, now: now))
        } }
    }

    /// Deletes the samples of `appID` of `type` matching `predicate` (predicateForSamples semantics) in one transaction.
    ///
    /// Other apps' samples are never touched. Tombstones and the access log as for deletes by uuid.
    public func deleteSamples(type: ObjectType, predicate: SamplePredicate, appID: String, now: Int64) throws(BrokerError) -> [DeletedSample] {
        try reclaiming { () throws(BrokerError) in try database.transaction { () throws(BrokerError) -> [DeletedSample] in
            guard let appCode = try sampleTable.apps.code(of: appID), let typeCode = try sampleTable.types.code(of: type.identifier) else { return [] }
            if TypeCatalogue.descriptor(for: type)?.kind == .correlation {
                return try removeCorrelations(try locateCorrelations(type: type, predicate: predicate, appCode: appCode), appID: appID, now: now)
            }
            // The app's own longest span: its delete walks only its own rows, whatever others store.
            let span = try appSpanTable.maxDuration(appCode: appCode, typeCode: typeCode)
            guard let bounds = SampleBounds(predicate, maxDurationMicros: span) else { return [] }
            let found = try sampleTable.locateOwn(appID: appID, type: type, bounds: bounds)
            return try remove(found, appID: appID, now: now)
        } }
    }

    /// One page of a clamped query, keyset-paginated on (sort date, seq) in the requested direction.
    ///
    /// Predicate exactly as predicateForSamples; scope `.from(D)` reads samples ending at or after D
    /// plus the app's own, `.ownSamplesOnly` the app's own, `.notDetermined` nothing. At most
    /// `min(pageSize, limit)` samples; `next` is nil when nothing more matches or the limit is used up.
    /// Samples with equal sort dates come in the order they were saved (their seq), or its reverse
    /// when descending. A page size below 1 is `INVALID_ARGUMENT`.
    public func samplePage(_ request: SamplePageRequest) throws(BrokerError) -> SamplePageResult {
        guard request.pageSize > 0 else { throw .invalidArgument("page size must be at least 1 (got \(request.pageSize))") }
        let allowed = min(request.pageSize, request.limit ?? .max)
        let empty = SamplePageResult(samples: [], next: nil)
        guard allowed > 0, let scope = try ScopeFilter(request.scope, appID: request.appID, apps: sampleTable.apps) else { return empty }
        var rows = try sampleTable.page(
            type: request.type, predicate: request.predicate, scope: scope, spans: try readSpans(request.type, scope),
            sort: request.sort, after: request.after,
            limit: allowed == .max ? allowed : allowed + 1, cursorRow: allowed == .max ? nil : allowed - 1)
        let more = rows.count > allowed
        if more { rows.keepFirst(allowed) }
        let limitReached = request.limit.map { $0 <= allowed } ?? false
        guard more, !limitReached, let last = rows.samples.last, let sequence = rows.sequences.last ?? nil else {
            return SamplePageResult(samples: rows.samples, next: nil)
        }
        let sortValue = request.sort.key == .startDate ? last.startMicros : last.endMicros
        return SamplePageResult(samples: rows.samples, next: SampleCursor(sortValue: sortValue, sequence: sequence))
    }

    /// Anchored changes of `type` with sequence in (afterSequence, throughSequence], clamped like `samplePage`.
    ///
    /// `afterSequence` is the position an anchor carries: the last change the app could see (0
    /// without an anchor). Added samples are the readable, matching ones still stored; deletions
    /// come from the tombstones, matched and clamped by their stored dates and source, each with
    /// its source app. Without an anchor no deletions are reported (the caller holds nothing they
    /// could remove). A tombstone whose (source, uuid) was saved again and is added in this same
    /// range is left out: the caller replaces the sample by its new version instead of deleting it.
    /// At most `pageSize` changes in sequence order; `hasMore` says more may remain.
    /// `lastSequence` is the position of the last change this page returned, or `afterSequence`
    /// when it returned none: an anchor built from it moves only when something the app may see
    /// changed. What is read follows the scope (`SampleTable.added`), so it costs what the app may
    /// see. Whether deletions it could see were pruned after `afterSequence` is the caller's check
    /// (`prunedVisibleSequence`).
    public func changes(type: ObjectType, predicate: SamplePredicate, scope: ReadScope, appID: String, afterSequence: Int64, throughSequence: Int64, pageSize: Int) throws(BrokerError) -> ChangePage {
        guard pageSize > 0 else { throw .invalidArgument("page size must be at least 1 (got \(pageSize))") }
        let nothing = ChangePage(added: [], deleted: [], lastSequence: afterSequence, hasMore: false)
        // No shortcut when the store has not changed since the anchor: whether it has depends on
        // every app's writes, so the scans below run either way (they find nothing quickly).
        guard let filter = try ScopeFilter(scope, appID: appID, apps: sampleTable.apps) else { return nothing }
        let spans = try readSpans(type, filter)
        let fetch = pageSize == .max ? pageSize : pageSize + 1
        let added = try sampleTable.added(
            type: type, predicate: predicate, scope: filter, spans: spans, after: afterSequence, through: throughSequence, limit: fetch)
        let deleted = afterSequence == 0 ? [] : try tombstoneTable.changes(
            type: type, predicate: predicate, scope: filter, spans: spans, after: afterSequence, through: throughSequence, limit: fetch)

        var page = nothing
        var seenDeleted = Set<SampleKey>()
        var (a, d, taken) = (0, 0, 0)
        while a < added.count || d < deleted.count {
            let takeAdded = d == deleted.count || (a < added.count && added[a].sequence < deleted[d].sequence)
            let sequence = takeAdded ? added[a].sequence : deleted[d].sequence
            if taken == pageSize {
                page.hasMore = true
                break
            }
            if takeAdded {
                page.added.append(added[a].sample)
                a += 1
            } else {
                let (uuid, appCode) = deleted[d].sample
                if seenDeleted.insert(SampleKey(appCode: appCode, uuid: uuid)).inserted,
                   try !isAddedAgain(uuid: uuid, appCode: appCode, type: type, predicate: predicate, scope: filter, through: throughSequence) {
                    page.deleted.append(ChangePage.Deletion(uuid: uuid, sourceAppID: try sampleTable.apps.name(of: appCode)))
                }
                d += 1
            }
            taken += 1
            page.lastSequence = sequence
        }
        return page
    }

    /// Whether the sample (`appCode`, `uuid`) is stored again, within `through`, and so is among
    /// the added samples of the same range (same type, matching, readable under `scope`).
    private func isAddedAgain(uuid: String, appCode: Int64, type: ObjectType, predicate: SamplePredicate, scope: ScopeFilter, through: Int64) throws(BrokerError) -> Bool {
        guard let stored = try sampleTable.locate(appCode: appCode, uuid: uuid), stored.sequence <= through,
              stored.sample.type == type else { return false }
        let readable = appCode == scope.ownCode || (scope.fromMicros.map { stored.sample.endMicros >= $0 } ?? false)
        return readable && SampleBounds(predicate, maxDurationMicros: .max)?.contains(
            startMicros: stored.sample.startMicros, endMicros: stored.sample.endMicros) == true
    }

    /// The spans that bound a read of `type` under `scope`, each from what the reader may see:
    /// the reading app's own; for full access every app's; from a floor F the longest sample
    /// ending at or after F (`LongSpanTable`).
    func readSpans(_ type: ObjectType, _ scope: ScopeFilter) throws(BrokerError) -> ReadSpans {
        let typeCode = try sampleTable.types.code(of: type.identifier)
        let own = try scope.ownCode.flatMap { (appCode) throws(BrokerError) -> Int64? in
            guard let typeCode else { return nil }
            return try appSpanTable.maxDuration(appCode: appCode, typeCode: typeCode)
        } ?? 0
        guard let floor = scope.fromMicros else { return ReadSpans(all: own, own: own) }
        guard floor > .min, let typeCode else { return ReadSpans(all: try spanTable.maxDuration(type), own: own) }
        return ReadSpans(all: try longSpans.maxDuration(typeCode: typeCode, endingAtOrAfter: floor), own: own)
    }

    /// Whether any stored sample ends before `instant` (one index seek per type).
    public func hasSamples(endingBefore instant: Int64) throws(BrokerError) -> Bool {
        try sampleTable.hasSamples(endingBefore: instant)
    }

    /// The last change-sequence number handed out (0 for a store that never changed).
    public func currentSequence() throws(BrokerError) -> Int64 {
        try sequenceTable.current().last
    }

    /// Deletes tombstones of deletions before `before` (µs) and remembers what was pruned; returns how many.
    ///
    /// Per (type, source app) the pruned points go to `prune_marks` (an anchor then expires only
    /// for readers who could have seen one of them); the store-wide highest pruned seq is still kept
    /// (`prunedThroughSequence`), which nothing an app sees depends on.
    @discardableResult
    public func pruneTombstones(deletedBefore before: Int64) throws(BrokerError) -> Int {
        try reclaiming { () throws(BrokerError) in try database.transaction { () throws(BrokerError) -> Int in
            for (key, points) in try correlationTable.prune(deletedBefore: before) {
                try correlationPruneMarks.add(typeCode: key.typeCode, appCode: key.appCode, points: points)
            }
            let pruned = try tombstoneTable.prune(deletedBefore: before)
            var highest: Int64 = 0
            for (key, points) in pruned.points {
                try pruneMarks.add(typeCode: key.typeCode, appCode: key.appCode, points: points)
                highest = max(highest, points.map(\.sequence).max() ?? 0)
            }
            if highest > 0 { try sequenceTable.notePruned(through: highest) }
            return pruned.count
        } }
    }

    /// The highest seq of a pruned deletion of `type` that `appID` could see under `scope` (0 when none):
    /// an anchor whose position is below it may miss a deletion and has expired. Pruned deletions
    /// the app could not see never count, so expiry reveals nothing about other apps' data.
    public func prunedVisibleSequence(type: ObjectType, scope: ReadScope, appID: String) throws(BrokerError) -> Int64 {
        guard let filter = try ScopeFilter(scope, appID: appID, apps: sampleTable.apps),
              let typeCode = try sampleTable.types.code(of: type.identifier) else { return 0 }
        return try pruneMarks.highestVisible(typeCode: typeCode, scope: filter, ownCode: filter.ownCode)
    }

    /// The highest sequence number whose tombstone was pruned, over every app (0 when none was).
    ///
    /// Since schema version 7 no anchor is judged by it (`prunedVisibleSequence` is): it is the
    /// store-wide figure the version 7 upgrade carried into `prune_marks`, kept in step for the tests
    /// that check pruning and for an operator view that does not exist yet.
    public func prunedThroughSequence() throws(BrokerError) -> Int64 {
        try sequenceTable.current().prunedThrough
    }

    /// Count, sum, average, minimum and maximum of the readable quantity samples of `type` matching
    /// `predicate`, per bucket [b0, b1), [b1, b2), … holding each sample's start; computed in SQLite.
    ///
    /// Buckets without samples are left out. Boundaries must be strictly ascending
    /// (`INVALID_ARGUMENT` otherwise); fewer than two give no buckets. Non-quantity samples are ignored.
    ///
    /// `mergeSources` (for cumulative types): where the reader sees more than one source in the
    /// range, overlapping samples are merged by the person's source priority (`SourceMerge`), after
    /// the scope has cut the rows to what the reader may see.
    public func statistics(
        type: ObjectType, predicate: SamplePredicate, scope: ReadScope, appID: String, boundaries: [Int64], mergeSources: Bool = false
    ) throws(BrokerError) -> [StatisticsBucket] {
        guard boundaries.count >= 2 else { return [] }
        for index in 1..<boundaries.count where boundaries[index] <= boundaries[index - 1] {
            throw .invalidArgument("statistics boundaries must be strictly ascending (boundaries[\(index)] is not)")
        }
        guard let filter = try ScopeFilter(scope, appID: appID, apps: sampleTable.apps) else { return [] }
        // An own-only reader sees one source: nothing to merge. Otherwise the order is asked per
        // visible source, when there are two (the whole list names apps the reader may not see).
        let priorities = sourcePriorities
        let position: ((String) throws(BrokerError) -> Int?)? = mergeSources && filter.fromMicros != nil
            ? { (appID: String) throws(BrokerError) -> Int? in try priorities.position(of: appID, in: type.identifier) } : nil
        return try sampleTable.statistics(
            type: type, predicate: predicate, scope: filter, spans: try readSpans(type, filter), boundaries: boundaries,
            position: position)
    }

    /// The person's own statistics: like `statistics`, over every source's samples (full access, no
    /// floor, no reading app). For the admin socket only: an app's statistics go through its scope.
    public func allSourcesStatistics(
        type: ObjectType, predicate: SamplePredicate, boundaries: [Int64], mergeSources: Bool = false
    ) throws(BrokerError) -> [StatisticsBucket] {
        try statistics(type: type, predicate: predicate, scope: .from(.min), appID: "", boundaries: boundaries, mergeSources: mergeSources)
    }

    /// Appends an access-log row: `appID` did `operation` ("read", "write", "delete") through the
    /// call `method` ("Query", "Statistics", …) on `count` samples of `type` at `now`.
    public func logAccess(appID: String, operation: String, method: String, type: ObjectType, count: Int, now: Int64) throws(BrokerError) {
        try accessLogTable.append(appID: appID, operation: operation, method: method, type: type, count: count, now: now)
    }

    /// The newest `limit` access-log rows (all when `limit` ≤ 0), of `appID` only when given; newest first.
    public func accessLog(appID: String?, limit: Int) throws(BrokerError) -> [AccessLogEntry] {
        try accessLogTable.entries(appID: appID, limit: limit)
    }

    /// Up to `pageSize` stored samples after `afterSequence` (of `type` and of `appID` when given), by sequence.
    /// Without a type, the objects of correlations are left out (they are exported inside their
    /// correlations); a page may then hold fewer, and is empty only when nothing is left.
    ///
    /// `lastSequence` is the last returned sample's sequence (`afterSequence` when none): pass it
    /// back for the next page; an empty page means the export is done.
    public func exportPage(type: ObjectType?, appID: String?, afterSequence: Int64, pageSize: Int) throws(BrokerError) -> (samples: [Sample], lastSequence: Int64) {
        guard pageSize > 0 else { throw .invalidArgument("page size must be at least 1 (got \(pageSize))") }
        guard type == nil else {
            let rows = try sampleTable.export(type: type, appID: appID, after: afterSequence, limit: pageSize)
            return (rows.map(\.sample), rows.last?.sequence ?? afterSequence)
        }
        // Everything: a correlation's objects go out inside it (`exportCorrelationPage`), not here.
        var after = afterSequence
        while true {
            let rows = try sampleTable.export(type: nil, appID: appID, after: after, limit: pageSize)
            guard let first = rows.first?.sequence, let last = rows.last?.sequence else { return ([], after) }
            let objects = try correlationTable.members(between: first, and: last)
            let kept = objects.isEmpty ? rows.map(\.sample) : rows.filter { !objects.contains($0.sequence) }.map(\.sample)
            if !kept.isEmpty || rows.count < pageSize { return (kept, last) }
            after = last
        }
    }

    /// Deletes the located rows of `appID`, each with a tombstone numbered from the change sequence, inside the caller's transaction.
    /// A correlation holding one of them is deleted first (`locateCorrelations(holding:)`): it is
    /// returned ahead of them, marked `deletedWithAnObject`.
    private func remove(_ found: [(sequence: Int64, sample: DeletedSample)], appID: String, now: Int64) throws(BrokerError) -> [DeletedSample] {
        guard !found.isEmpty else { return [] }
        let holders = try removeCorrelations(try locateCorrelations(holding: found.map(\.sequence)), appID: appID, now: now)
        var sequence = try sequenceTable.current().last
        var tally = TypeTally()
        for row in found {
            sequence += 1
            try sampleTable.remove(sequence: row.sequence)
            try tombstoneTable.add(row.sample, sequence: sequence, now: now)
            tally.add(row.sample.type, count: 1)
        }
        try sequenceTable.setLast(sequence)
        if let appCode = try sampleTable.apps.code(of: appID) {
            try removeFromRollups(found.map(\.sample), appCode: appCode)
        }
        for entry in tally.entries {
            try accessLogTable.append(appID: appID, operation: "delete", method: "Delete", type: entry.type, count: entry.count, now: now)
        }
        return holders + found.map(\.sample)
    }

    /// end − start of `sample`, saturating at `Int64.max`.
    private static func duration(_ sample: Sample) -> Int64 {
        let (span, overflow) = sample.endMicros.subtractingReportingOverflow(sample.startMicros)
        return overflow ? .max : max(0, span)
    }
}

/// Per-type figures of one write, in order of first appearance: how many samples it counted (saved
/// or deleted, for the access log) and the longest one's duration (for the type's span). A batch is
/// almost always of one type, so the last type looked up is checked before the dictionary.
private struct TypeTally {
    /// One type's figures.
    struct Entry {
        let type: ObjectType
        var count = 0
        var longest: Int64 = 0
    }

    /// The types, first appearance first.
    private(set) var entries: [Entry] = []
    /// Where each type sits in `entries`.
    private var slots: [ObjectType: Int] = [:]
    /// The slot of the type looked up last.
    private var lastSlot = -1

    /// Counts `count` more samples of `type`, the longest lasting at least `duration`; adds the type when new.
    mutating func add(_ type: ObjectType, count: Int = 0, duration: Int64 = 0) {
        let slot = self.slot(of: type)
        entries[slot].count += count
        entries[slot].longest = max(entries[slot].longest, duration)
    }

    private mutating func slot(of type: ObjectType) -> Int {
        if lastSlot >= 0, entries[lastSlot].type == type { return lastSlot }
        if let slot = slots[type] {
            lastSlot = slot
            return slot
        }
        slots[type] = entries.count
        entries.append(Entry(type: type))
        lastSlot = entries.count - 1
        return lastSlot
    }
}

/// A batch checked and ready to write: its rows and codes, computed before the transaction.
private struct PreparedSave {
    let rows: SampleTable.NewRows
    let sourceAppID: String
    let appCode: Int64
    let method: String
    let batchID: String
    let correlations: [SaveRequest.PendingCorrelation]
    /// The type code of each of `correlations`, in the same order.
    let correlationTypeCodes: [Int64]
}

/// A sample's identity: its source app's code and its uuid.
private struct SampleKey: Hashable {
    let appCode: Int64
    let uuid: String
}
