import BrokerModel
import BrokerStore
import BrokerWire

extension Broker {
    /// AdminSetSourcePriority: the person's source order for a sample type, best first (empty
    /// clears it). App ids need not be registered (a source may be placed before it stores anything).
    func handleSetSourcePriority(_ type: ObjectType, appIDs: [String], context: CallContext) {
        do throws(BrokerError) {
            _ = try sampleDescriptor(type)
            for (index, appID) in appIDs.enumerated() where appID.isEmpty || appID.utf8.count > Self.maxSourceAppIDBytes {
                throw .invalidArgument("app_ids[\(index)] must be 1 to \(Self.maxSourceAppIDBytes) bytes")
            }
            guard appIDs.count <= Self.maxSourcePriorityApps else {
                throw .invalidArgument("app_ids has \(appIDs.count) entries; at most \(Self.maxSourcePriorityApps) are allowed")
            }
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.setSourcePriority(of: type, appIDs: appIDs)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success: self.reply(context, .adminSetSourcePriority(.init()))
            case .failure(let error): self.finish(context, error: error)
            }
        }
    }

    /// AdminListSourcePriority: the order set for a sample type (empty when none was).
    func handleListSourcePriority(_ type: ObjectType, context: CallContext) {
        do throws(BrokerError) { _ = try sampleDescriptor(type) } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.sourcePriority(of: type)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let appIDs): self.reply(context, .adminListSourcePriority(.with { $0.appIDs = appIDs }))
            case .failure(let error): self.finish(context, error: error)
            }
        }
    }

    /// The longest app id a source order may hold.
    static let maxSourceAppIDBytes = 255
    /// The most sources one type's order may list.
    static let maxSourcePriorityApps = 1_000
}
