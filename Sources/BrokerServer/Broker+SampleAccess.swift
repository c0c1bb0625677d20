import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// What the app may read of `type` right now, or the error for a type it cannot query.
    func readScope(of type: ObjectType, appID: String) throws(BrokerError) -> ReadScope {
        let scope = AuthorizationPolicy.readScope(for: type, grants: grants[appID] ?? AppGrants(), earliestPermitted: configuration.earliestPermittedMicros)
        switch scope {
        case .notDetermined:
            throw BrokerError(.authorizationNotDetermined, "the app never asked to read \(type.identifier)")
        case .from(let floor) where floor <= configuration.earliestPermittedMicros && noSampleEndsBeforeEarliestPermitted:
            // Nothing stored ends before the floor, so the store's unbounded read gives the same
            // samples, through one index instead of a floor's three parts.
            return .from(.min)
        default:
            return scope
        }
    }

    /// The descriptor of a sample type (not a characteristic), or INVALID_ARGUMENT.
    func sampleDescriptor(_ type: ObjectType, field: String = "type") throws(BrokerError) -> TypeDescriptor {
        guard let descriptor = try TypeCatalogue.validate([type], field: field).first else {
            throw .invalidArgument("\(field) is missing")
        }
        guard !descriptor.isCharacteristic else {
            throw .invalidArgument("\(type.identifier) is a characteristic, not a sample type")
        }
        return descriptor
    }

    /// The share check for saving: never asked → not determined; denied → authorization denied.
    func checkShare(_ types: Set<ObjectType>, appID: String) throws(BrokerError) {
        let current = grants[appID] ?? AppGrants()
        for type in types.sorted() {
            switch current[type]?.share {
            case .allow: continue
            case .deny: throw BrokerError(.authorizationDenied, "sharing \(type.identifier) was denied")
            case nil: throw BrokerError(.authorizationNotDetermined, "the app never asked to share \(type.identifier)")
            }
        }
    }

    /// Appends an access-log row for the app's own call `method` on the worker, once the call's reply
    /// is on its way; failures are logged, never surfaced to the app.
    func logAccess(appID: String, operation: String, method: String, type: ObjectType, count: Int) {
        worker.submit({ store throws(BrokerError) in
            try store.logAccess(appID: appID, operation: operation, method: method, type: type, count: count, now: Microseconds.now())
        }) { [weak self] result in
            self?.noteStoreResult(result)
        }
    }

    /// Tells observers that may see it that `type` changed (their scope is checked now).
    func notifyObservers(type: ObjectType, changes: [(endMicros: Int64, sourceAppID: String)]) {
        guard !changes.isEmpty else { return }
        let now = Microseconds.now()
        for observer in Array(observers.values) where observer.types.contains(type) {
            let scope = AuthorizationPolicy.readScope(for: type, grants: grants[observer.appID] ?? AppGrants(), earliestPermitted: configuration.earliestPermittedMicros)
            let visible = changes.contains {
                PredicateRules.readable(endMicros: $0.endMicros, sourceAppID: $0.sourceAppID, by: observer.appID, scope: scope)
            }
            guard visible else { continue }
            observer.pending[type] = now
            pumpObserver(observer)
        }
    }

    /// Sends pending notifications while the observer has credit.
    func pumpObserver(_ observer: SampleObserver) {
        for type in observer.pending.keys.sorted() {
            guard let changed = observer.pending[type] else { continue }
            // Check again at send time: a revocation since the change hides it.
            let scope = TypeCatalogue.descriptor(for: type)?.kind == .correlation
                ? (mayReadSomeMember(of: type, appID: observer.appID) ? .ownSamplesOnly : .notDetermined)
                : AuthorizationPolicy.readScope(for: type, grants: grants[observer.appID] ?? AppGrants(), earliestPermitted: configuration.earliestPermittedMicros)
            if case .notDetermined = scope {
                observer.pending[type] = nil
                continue
            }
            guard send(.observed(type: type, changedMicros: changed), on: observer.context) else { return }
            observer.pending[type] = nil
        }
    }
}
