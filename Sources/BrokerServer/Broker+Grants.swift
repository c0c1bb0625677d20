import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// An app's recorded grants, sorted by type.
    func handleListGrants(_ appID: String, context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        let list = (grants[appID]?.grants.values).map { Array($0) } ?? []
        reply(context, .adminListGrants(.with { $0.grants = list.sorted { $0.type < $1.type }.map(\.proto) }))
    }

    /// Forgets decisions so the types are not determined again; effective at once for every call.
    func handleRevoke(_ appID: String, types: [ObjectType], context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        do throws(BrokerError) {
            _ = try TypeCatalogue.validate(types, field: "types")
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.revokeGrants(appID: appID, types: types)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let count):
                var current = self.grants[appID] ?? AppGrants()
                current.revoke(types)
                self.grants[appID] = current
                self.logger.info("grants revoked", ["app_id": appID, "types": count])
                self.reply(context, .adminRevoke(.with { $0.revoked = UInt32(clamping: count) }))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Every app that ever asked, registered or not.
    func handleListSources(context: CallContext) {
        worker.submit({ store throws(BrokerError) in
            try store.listSources()
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let sources): self.reply(context, .adminListSources(.with { $0.sources = sources.map(\.proto) }))
            case .failure(let error): self.finish(context, error: error)
            }
        }
    }

    /// Sets or clears one of the person's characteristics.
    func handleSetCharacteristic(_ value: CharacteristicValue, context: CallContext) {
        do throws(BrokerError) {
            try CharacteristicRules.validate(value)
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.setCharacteristic(value.type, value: value.value, now: Microseconds.now())
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success:
                self.characteristics[value.type] = value.value
                self.reply(context, .adminSetCharacteristic(.init()))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Why an app sees what it sees for one type.
    func handleExplain(_ appID: String, type: ObjectType, context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        do throws(BrokerError) {
            _ = try TypeCatalogue.validate([type], field: "type")
        } catch {
            finish(context, error: error)
            return
        }
        let explanation = AuthorizationPolicy.explain(type: type, grants: grants[appID] ?? AppGrants(), earliestPermitted: configuration.earliestPermittedMicros)
        reply(context, .adminExplain(explanation.proto))
    }
}
