import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerStore
import BrokerTransport
import BrokerWire

extension Broker {
    /// Saves a batch once committed: validated, share-checked, idempotent, all or nothing.
    func handleSave(_ samples: [Sample], context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        let normalized: [Sample]
        do throws(BrokerError) {
            normalized = try SampleValidator.validate(samples, earliestPermitted: configuration.earliestPermittedMicros)
            try checkShare(Self.shareTypes(of: normalized), appID: appID)
        } catch {
            finish(context, error: error)
            return
        }
        store(normalized, as: appID, context: context) { saved, unchanged in .save(.with { $0.saved = saved; $0.unchanged = unchanged }) }
    }

    /// Imports samples as a given source app (the person's own data; no share check). The chunks of
    /// one import share `batchID`, so the access log shows them as one row per type.
    func handleImport(appID: String, samples: [Sample], batchID: String, context: CallContext) {
        let normalized: [Sample]
        do throws(BrokerError) {
            if let error = Self.validate(AppRegistration(appID: appID, name: appID)) { throw error }
            normalized = try SampleValidator.validate(samples, earliestPermitted: configuration.earliestPermittedMicros)
            guard batchID.utf8.count <= Self.maxBatchIDBytes else {
                throw .invalidArgument("batch_id is \(batchID.utf8.count) bytes; at most \(Self.maxBatchIDBytes) are allowed")
            }
        } catch {
            finish(context, error: error)
            return
        }
        store(normalized, as: appID, method: "AdminImport", batchID: batchID, context: context) { saved, unchanged in
            .adminImport(.with { $0.saved = saved; $0.unchanged = unchanged })
        }
    }

    /// The longest AdminImport batch id (a random id is 32 hex digits).
    static let maxBatchIDBytes = 128

    private func store(
        _ samples: [Sample], as appID: String, method: String = "Save", batchID: String = "", context: CallContext,
        response: @escaping (UInt32, UInt32) -> Proto.ServerFrame.Response
    ) {
        worker.submitSave(samples, as: appID, method: method, batchID: batchID) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let outcome):
                self.reply(context, response(UInt32(clamping: outcome.saved), UInt32(clamping: outcome.unchanged)))
                // Observers are rare; without one, nothing is grouped (a save can hold 10,000 samples).
                if !self.observers.isEmpty {
                    for (type, saved) in Dictionary(grouping: outcome.savedTypesAndEnds, by: \.type) {
                        self.notifyObservers(type: type, changes: saved.map { ($0.endMicros, appID) })
                    }
                    for (type, saved) in Dictionary(grouping: outcome.newCorrelations, by: \.type) {
                        self.notifyCorrelationObservers(type: type, changes: saved.map { (Self.objectPoints(of: $0), appID) })
                    }
                }
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Forgets tombstones past the retention every hour; anchors older than that get "anchor expired".
    func schedulePruning() {
        loop.schedule(afterMicros: 3_600 * Microseconds.perSecond) { [weak self] in
            guard let self, self.state == .running else { return }
            let before = Microseconds.now() - self.configuration.tombstoneRetentionMicros
            self.worker.submit({ store throws(BrokerError) in try store.pruneTombstones(deletedBefore: before) }) { [weak self] result in
                self?.noteStoreResult(result)
            }
            self.schedulePruning()
        }
    }

    /// Deletes the app's own samples, by uuid or by type and predicate; remembered as tombstones.
    func handleDelete(uuids: [String], type: ObjectType?, predicate: SamplePredicate?, context: CallContext) {
        guard let appID = sessionAppID(context) else { return }
        let job: @Sendable (BrokerStore) throws(BrokerError) -> [DeletedSample]
        do throws(BrokerError) {
            switch (uuids.isEmpty, type) {
            case (false, nil):
                guard uuids.count <= SampleValidator.maxBatch else {
                    throw .invalidArgument("uuids holds \(uuids.count) entries; at most \(SampleValidator.maxBatch) are allowed")
                }
                let lowered = uuids.map { $0.lowercased() }
                job = { store throws(BrokerError) in try store.deleteSamples(uuids: lowered, appID: appID, now: Microseconds.now()) }
            case (true, let type?):
                _ = try sampleDescriptor(type)
                let predicate = predicate ?? .all
                try PredicateRules.validate(predicate)
                job = { store throws(BrokerError) in try store.deleteSamples(type: type, predicate: predicate, appID: appID, now: Microseconds.now()) }
            default:
                throw .invalidArgument("give either uuids or a type (with an optional predicate), not both and not neither")
            }
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit(job) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let deleted):
                // What the caller named: a correlation gone with one of its objects is not counted.
                let named = deleted.count(where: { !$0.deletedWithAnObject })
                self.reply(context, .delete(.with { $0.deleted = UInt32(clamping: named) }))
                for (type, gone) in Dictionary(grouping: deleted, by: \.type) {
                    if TypeCatalogue.descriptor(for: type)?.kind == .correlation {
                        self.notifyCorrelationObservers(type: type, changes: gone.map { gone in
                            (gone.objects.map { ($0.type, $0.endMicros) }, gone.sourceAppID)
                        })
                    } else {
                        self.notifyObservers(type: type, changes: gone.map { ($0.endMicros, $0.sourceAppID) })
                    }
                }
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// The type and end of each object of correlation `sample` (what observers of its type are told about).
    static func objectPoints(of sample: Sample) -> [(type: ObjectType, endMicros: Int64)] {
        guard case .correlation(let objects) = sample.value else { return [] }
        return objects.map { ($0.type, $0.endMicros) }
    }
}
