public import BrokerModel
public import BrokerPolicy

extension BrokerStore {
    /// Anchored changes of correlation type `type` with positions in (afterSequence, throughSequence]:
    /// the correlations added that the reader may see (showing only the objects it may read) and the
    /// deletions of correlations it could have seen, in position order, at most `limit` added.
    ///
    /// HKAnchoredObjectQuery's rule for a correlation type, with HKCorrelationQuery's visibility: a
    /// correlation is added when the reader may read at least one of its objects by `memberScopes`
    /// (as in `correlations(of:…)`), and a deletion is reported when the deleted correlation held
    /// such an object (`correlation_tombstone_members`, read by the same two scoped indexes). Only
    /// what those scopes show is read — the reader's own links and tombstones for a read-denied
    /// reader, those ending at or after the floor (and its own) for a limited one — so the result,
    /// its `lastSequence` and the work depend only on what the reader may see. Without an anchor
    /// (`afterSequence` 0) no deletions are reported. A deletion whose (source, uuid) is among the
    /// added correlations of the same range is left out (the caller replaces it instead).
    /// `lastSequence` is the position of the last change returned (`afterSequence` when none);
    /// `hasMore` says `limit` cut the changes short. The predicate applies to the correlation's dates.
    public func correlationChanges(
        of type: ObjectType, predicate: SamplePredicate, memberScopes: [(type: ObjectType, scope: ReadScope)], appID: String,
        afterSequence: Int64, throughSequence: Int64, limit: Int?
    ) throws(BrokerError) -> ChangePage {
        var page = ChangePage(added: [], deleted: [], lastSequence: afterSequence, hasMore: false)
        guard let typeCode = try sampleTable.types.code(of: type.identifier) else { return page }
        let ownCode = appID.isEmpty ? nil : try sampleTable.apps.code(of: appID)
        let deletions = afterSequence > 0
        var members: [Int64: Set<Int64>] = [:]
        var tombstones = Set<Int64>()
        func add(_ links: [(correlation: Int64, member: Int64)]) {
            for link in links { members[link.correlation, default: []].insert(link.member) }
        }
        for (memberType, scope) in memberScopes {
            guard let memberCode = try sampleTable.types.code(of: memberType.identifier) else { continue }
            func addOwn() throws(BrokerError) {
                guard let ownCode else { return }
                add(try correlationTable.links(typeCode: memberCode, appCode: ownCode))
                if deletions {
                    tombstones.formUnion(try correlationTable.tombstones(
                        typeCode: memberCode, appCode: ownCode, after: afterSequence, through: throughSequence))
                }
            }
            switch scope {
            case .notDetermined:
                continue
            case .ownSamplesOnly:
                try addOwn()
            case .from(let floor):
                add(try correlationTable.links(typeCode: memberCode, endingAtOrAfter: floor))
                if deletions {
                    tombstones.formUnion(try correlationTable.tombstones(
                        typeCode: memberCode, endingAtOrAfter: floor, after: afterSequence, through: throughSequence))
                }
                if floor > .min { try addOwn() }
            }
        }
        var added: [CorrelationTable.Row] = []
        for sequence in members.keys.sorted() {
            guard let row = try correlationTable.row(sequence: sequence), row.typeCode == typeCode,
                  row.changeSequence > afterSequence, row.changeSequence <= throughSequence,
                  PredicateRules.matches(predicate, startMicros: row.startMicros, endMicros: row.endMicros)
            else { continue }
            added.append(row)
        }
        added.sort { $0.changeSequence < $1.changeSequence }
        let addedKeys = Set(added.map { CorrelationKey(appCode: $0.appCode, uuid: $0.uuid) })
        var deleted: [(sequence: Int64, tombstone: CorrelationTable.Tombstone)] = []
        for sequence in tombstones.sorted() {
            guard let tombstone = try correlationTable.tombstone(sequence: sequence), tombstone.typeCode == typeCode,
                  PredicateRules.matches(predicate, startMicros: tombstone.startMicros, endMicros: tombstone.endMicros),
                  !addedKeys.contains(CorrelationKey(appCode: tombstone.appCode, uuid: tombstone.uuid))
            else { continue }
            deleted.append((sequence, tombstone))
        }
        var (a, d) = (0, 0)
        while a < added.count || d < deleted.count {
            if let limit, page.added.count >= limit {
                page.hasMore = true
                break
            }
            if d == deleted.count || (a < added.count && added[a].changeSequence < deleted[d].sequence) {
                let row = added[a]
                page.added.append(try correlationSample(row, type: type, members: members[row.sequence] ?? []))
                page.lastSequence = row.changeSequence
                a += 1
            } else {
                let (sequence, tombstone) = deleted[d]
                page.deleted.append(ChangePage.Deletion(uuid: tombstone.uuid, sourceAppID: try sampleTable.apps.name(of: tombstone.appCode)))
                page.lastSequence = sequence
                d += 1
            }
        }
        return page
    }

    /// The highest seq of a pruned correlation deletion the reader could have seen by `memberScopes`
    /// (0 when none): an anchor of a correlation type below it has expired. Pruned deletions of
    /// correlations it could not see never count.
    public func prunedVisibleCorrelationSequence(memberScopes: [(type: ObjectType, scope: ReadScope)], appID: String) throws(BrokerError) -> Int64 {
        var highest: Int64 = 0
        for (memberType, scope) in memberScopes {
            guard let filter = try ScopeFilter(scope, appID: appID, apps: sampleTable.apps),
                  let memberCode = try sampleTable.types.code(of: memberType.identifier) else { continue }
            highest = max(highest, try correlationPruneMarks.highestVisible(typeCode: memberCode, scope: filter, ownCode: filter.ownCode))
        }
        return highest
    }

    /// Correlation `row` of `type` as a sample whose objects are its member rows `members` (those the reader may see).
    func correlationSample(_ row: CorrelationTable.Row, type: ObjectType, members: Set<Int64>) throws(BrokerError) -> Sample {
        var objects: [Sample] = []
        for member in members.sorted() {
            if let sample = try sampleTable.sample(sequence: member) { objects.append(sample) }
        }
        return Sample(
            uuid: row.uuid, type: type, startMicros: row.startMicros, endMicros: row.endMicros,
            value: .correlation(objects), metadata: row.metadata,
            sourceAppID: try sampleTable.apps.name(of: row.appCode), createdMicros: row.createdMicros)
    }
}

/// A correlation's identity: (source app, uuid).
private struct CorrelationKey: Hashable {
    let appCode: Int64
    let uuid: String
}

extension BrokerStore {
    /// Up to `pageSize` stored correlations after `afterSequence` (of correlation type `type` and of
    /// `appID` when given), by their seq, each with every object it holds: the person's export.
    /// A `type` that is not a correlation type gives none. `lastSequence` as in `exportPage`.
    public func exportCorrelationPage(type: ObjectType?, appID: String?, afterSequence: Int64, pageSize: Int) throws(BrokerError) -> (samples: [Sample], lastSequence: Int64) {
        guard pageSize > 0 else { throw .invalidArgument("page size must be at least 1 (got \(pageSize))") }
        if let type, TypeCatalogue.descriptor(for: type)?.kind != .correlation { return ([], afterSequence) }
        // A name without a code has nothing stored: -1, which no row has.
        let typeCode = try type.map { (type) throws(BrokerError) in try sampleTable.types.code(of: type.identifier) ?? -1 }
        let appCode = try appID.map { (appID) throws(BrokerError) in try sampleTable.apps.code(of: appID) ?? -1 }
        let rows = try correlationTable.export(after: afterSequence, limit: pageSize, typeCode: typeCode, appCode: appCode)
        var samples: [Sample] = []
        for row in rows {
            samples.append(try correlationSample(row, type: try sampleTable.objectType(code: row.typeCode), members: try correlationTable.members(of: row.sequence)))
        }
        return (samples, rows.last?.sequence ?? afterSequence)
    }
}
