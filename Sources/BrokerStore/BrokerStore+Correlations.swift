public import BrokerModel
public import BrokerPolicy

extension BrokerStore {
    /// Saves a batch's correlations after their members (already rows of `samples`), inside the
    /// caller's transaction; returns how many were new and how many already stored unchanged.
    ///
    /// A correlation's identity is (source app, uuid), as a sample's. The same content again (type,
    /// dates, metadata and the same member uuids) is unchanged; other content under a stored uuid is
    /// `ALREADY_EXISTS` naming "samples[i]", and so is a member that already belongs to another
    /// correlation (a sample is an object of at most one). Writes one "write" access-log row for the
    /// correlation type counting the new correlations. Each new correlation takes the next position
    /// of the change sequence after `sequence` (the last one the batch used), which it advances.
    ///
    /// `rows` are the batch's sample rows and `rowSequences` the seq each was inserted as by this
    /// batch (0 for a row already stored): a member inserted here is linked from what the batch
    /// knows (seq, type code, end), one already stored is looked up by uuid.
    func saveCorrelations(
        _ correlations: [SaveRequest.PendingCorrelation], typeCodes: [Int64], rows: SampleTable.NewRows, rowSequences: [Int64],
        appCode: Int64, sourceAppID: String, method: String, batchID: String, now: Int64, sequence changeSequence: inout Int64
    ) throws(BrokerError) -> (saved: [Sample], unchanged: Int) {
        var saved: [ObjectType: Int] = [:]
        var new: [Sample] = []
        var unchanged = 0
        for (position, correlation) in correlations.enumerated() {
            let sample = correlation.sample
            let typeCode = typeCodes[position]
            let metadata = MetadataText.encode(sample.metadata)
            guard let sequence = try correlationTable.add(
                uuid: sample.uuid, typeCode: typeCode, startMicros: sample.startMicros, endMicros: sample.endMicros,
                metadata: metadata, appCode: appCode, now: now, changeSequence: changeSequence + 1,
                objectCount: correlation.memberUUIDs.count)
            else {
                guard let stored = try correlationTable.row(appCode: appCode, uuid: sample.uuid),
                      stored.typeCode == typeCode, stored.startMicros == sample.startMicros, stored.endMicros == sample.endMicros,
                      MetadataText.encode(stored.metadata) == metadata,
                      try correlationTable.memberUUIDs(of: stored.sequence).sorted() == correlation.memberUUIDs.sorted()
                else {
                    throw .alreadyExists("samples[\(correlation.index)]: this app already saved a correlation with uuid \"\(sample.uuid)\" with other content")
                }
                unchanged += 1
                continue
            }
            changeSequence += 1
            for (memberIndex, uuid) in correlation.memberUUIDs.enumerated() {
                let position = correlation.memberPositions[memberIndex]
                if position < rowSequences.count, rowSequences[position] > 0 {
                    guard try correlationTable.link(
                        member: rowSequences[position], to: sequence, typeCode: rows.typeCodes[position], appCode: appCode,
                        endMicros: rows.samples[position].endMicros)
                    else {
                        throw .internal("samples[\(correlation.index)]: objects[\(memberIndex)]: the sample with uuid \"\(uuid)\" was inserted but is linked already")
                    }
                    continue
                }
                guard let (member, location) = try sampleTable.locate(appCode: appCode, uuid: uuid),
                      let memberType = try sampleTable.types.code(of: location.type.identifier)
                else {
                    throw .internal("samples[\(correlation.index)]: objects[\(memberIndex)]: uuid \"\(uuid)\" was not stored")
                }
                guard try correlationTable.link(member: member, to: sequence, typeCode: memberType, appCode: appCode, endMicros: location.endMicros) else {
                    throw .alreadyExists("samples[\(correlation.index)]: objects[\(memberIndex)]: the sample with uuid \"\(uuid)\" already belongs to another correlation")
                }
            }
            saved[sample.type, default: 0] += 1
            new.append(sample)
        }
        for (type, count) in saved.sorted(by: { $0.key < $1.key }) {
            try accessLogTable.append(appID: sourceAppID, operation: "write", method: method, type: type, count: count, now: now, batchID: batchID)
        }
        return (new, unchanged)
    }

    /// The correlations of `type` matching `predicate` that `appID` may see, with the members it may see, in `sort` order, at most `limit`.
    ///
    /// HealthKit's rule (HKCorrelationQuery): a correlation is returned when the reader may read at
    /// least one of its objects, and it shows only those. `memberScopes` is the reader's scope for
    /// each member type; a member is readable when its type's scope shows it as a sample of that
    /// type would be (full; from a date, by the member's end, or its own; its own only). Only the
    /// links the scopes show are read (`CorrelationTable`), then the correlations they lead to and
    /// their readable members, so the work follows what the reader may see: a read-denied reader
    /// reads its own links only. The predicate applies to the correlation's own dates.
    public func correlations(
        of type: ObjectType, predicate: SamplePredicate, memberScopes: [(type: ObjectType, scope: ReadScope)], appID: String,
        sort: SampleSort, limit: Int?
    ) throws(BrokerError) -> [Sample] {
        guard let typeCode = try sampleTable.types.code(of: type.identifier) else { return [] }
        let ownCode = appID.isEmpty ? nil : try sampleTable.apps.code(of: appID)
        var members: [Int64: Set<Int64>] = [:]
        func add(_ links: [(correlation: Int64, member: Int64)]) {
            for link in links { members[link.correlation, default: []].insert(link.member) }
        }
        for (memberType, scope) in memberScopes {
            guard let memberCode = try sampleTable.types.code(of: memberType.identifier) else { continue }
            switch scope {
            case .notDetermined:
                continue
            case .ownSamplesOnly:
                if let ownCode { add(try correlationTable.links(typeCode: memberCode, appCode: ownCode)) }
            case .from(let floor):
                add(try correlationTable.links(typeCode: memberCode, endingAtOrAfter: floor))
                if floor > .min, let ownCode { add(try correlationTable.links(typeCode: memberCode, appCode: ownCode)) }
            }
        }
        var rows: [CorrelationTable.Row] = []
        for sequence in members.keys.sorted() {
            guard let row = try correlationTable.row(sequence: sequence), row.typeCode == typeCode,
                  PredicateRules.matches(predicate, startMicros: row.startMicros, endMicros: row.endMicros)
            else { continue }
            rows.append(row)
        }
        let byStart = sort.key == .startDate
        rows.sort { a, b in
            let (x, y) = byStart ? (a.startMicros, b.startMicros) : (a.endMicros, b.endMicros)
            let ascending = x != y ? x < y : a.sequence < b.sequence
            return sort.descending ? !ascending : ascending
        }
        if let limit, rows.count > limit { rows.removeLast(rows.count - limit) }
        var result: [Sample] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            result.append(try correlationSample(row, type: type, members: members[row.sequence] ?? []))
        }
        return result
    }

    /// The app's own correlations under `uuids` (seq, as deleted), for a delete by uuid.
    func locateCorrelations(uuids: [String], appCode: Int64) throws(BrokerError) -> [(sequence: Int64, sample: DeletedSample)] {
        var found: [(sequence: Int64, sample: DeletedSample)] = []
        var seen = Set<String>()
        for uuid in uuids where seen.insert(uuid).inserted {
            guard let row = try correlationTable.row(appCode: appCode, uuid: uuid) else { continue }
            found.append((row.sequence, try deleted(row, appCode: appCode)))
        }
        return found
    }

    /// The app's own correlations of `type` matching `predicate`, for a delete by type.
    func locateCorrelations(type: ObjectType, predicate: SamplePredicate, appCode: Int64) throws(BrokerError) -> [(sequence: Int64, sample: DeletedSample)] {
        guard let typeCode = try sampleTable.types.code(of: type.identifier) else { return [] }
        var found: [(sequence: Int64, sample: DeletedSample)] = []
        for row in try correlationTable.own(appCode: appCode, typeCode: typeCode)
        where PredicateRules.matches(predicate, startMicros: row.startMicros, endMicros: row.endMicros) {
            found.append((row.sequence, try deleted(row, appCode: appCode)))
        }
        return found
    }

    /// The correlations holding the sample rows `members` as objects (seq, as deleted with an object),
    /// each once, read on the writer inside the caller's transaction.
    ///
    /// A correlation cannot change (`HKCorrelation` is immutable, and an anchored query reports
    /// objects added or deleted, never changed): one that loses an object is deleted with it,
    /// its tombstone remembering every object it held, the deleted one included, so each reader
    /// that could see the correlation learns of its deletion. Its other objects stay as samples, as
    /// they do when the correlation itself is deleted.
    func locateCorrelations(holding members: [Int64]) throws(BrokerError) -> [(sequence: Int64, sample: DeletedSample)] {
        var found: [(sequence: Int64, sample: DeletedSample)] = []
        var seen = Set<Int64>()
        for member in members {
            guard let row = try correlationTable.holder(ofMember: member), seen.insert(row.sequence).inserted else { continue }
            var sample = try deleted(row, appCode: row.appCode)
            sample.deletedWithAnObject = true
            found.append((row.sequence, sample))
        }
        return found
    }

    /// Deletes located correlations (their members stay) inside the caller's transaction, each with
    /// a tombstone numbered from the change sequence (remembering its objects' types, source and
    /// ends for anchored queries), with one "delete" access-log row per correlation type.
    func removeCorrelations(_ found: [(sequence: Int64, sample: DeletedSample)], appID: String, now: Int64) throws(BrokerError) -> [DeletedSample] {
        guard !found.isEmpty else { return [] }
        var counts: [ObjectType: Int] = [:]
        var change = try sequenceTable.current().last
        var removed: [DeletedSample] = []
        for (sequence, sample) in found {
            change += 1
            try tombstoneTable.add(sample, sequence: change, now: now)
            var gone = sample
            gone.objects = try correlationTable.remove(sequence: sequence, tombstone: change).map { (point) throws(BrokerError) in
                DeletedSample.Object(type: try sampleTable.objectType(code: point.type), endMicros: point.end)
            }
            removed.append(gone)
            counts[sample.type, default: 0] += 1
        }
        try sequenceTable.setLast(change)
        for (type, count) in counts.sorted(by: { $0.key < $1.key }) {
            try accessLogTable.append(appID: appID, operation: "delete", method: "Delete", type: type, count: count, now: now)
        }
        return removed
    }

    private func deleted(_ row: CorrelationTable.Row, appCode: Int64) throws(BrokerError) -> DeletedSample {
        DeletedSample(
            uuid: row.uuid, type: try sampleTable.objectType(code: row.typeCode), startMicros: row.startMicros,
            endMicros: row.endMicros, sourceAppID: try sampleTable.apps.name(of: appCode))
    }
}
