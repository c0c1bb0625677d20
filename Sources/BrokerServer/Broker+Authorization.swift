import BrokerCore
import BrokerWire

extension Broker {
    /// The grants of the app this session proved to be.
    func appGrants(_ context: CallContext) -> AppGrants {
        guard let appID = context.session?.appID else { return AppGrants() }
        return grants[appID] ?? AppGrants()
    }

    /// Share status only; answered from memory on the loop thread.
    func handleAuthorizationStatus(_ type: ObjectType, context: CallContext) {
        do throws(BrokerError) {
            _ = try TypeCatalogue.validate([type], field: "type")
        } catch {
            finish(context, error: error)
            return
        }
        reply(context, .authorizationStatus(AuthorizationPolicy.authorizationStatus(for: type, grants: appGrants(context))))
    }

    /// Whether asking for these sets would prompt; unknown while the database is inaccessible.
    func handleRequestStatus(share: [ObjectType], read: [ObjectType], context: CallContext) {
        do throws(BrokerError) {
            try AuthorizationPolicy.validateTypeSets(share: share, read: read)
        } catch {
            finish(context, error: error)
            return
        }
        let status = storeHealthy
            ? AuthorizationPolicy.requestStatus(share: share, read: read, grants: appGrants(context))
            : RequestStatus.unknown
        reply(context, .requestStatus(status))
    }

    /// Earliest readable dates for limited grants only, exactly as the reference page says.
    func handleEarliestAuthorizedSampleDate(_ types: [ObjectType], context: CallContext) {
        do throws(BrokerError) {
            guard types.count <= AuthorizationPolicy.maxTypesPerRequest else {
                throw BrokerError.invalidArgument("types holds \(types.count) entries; at most \(AuthorizationPolicy.maxTypesPerRequest) are allowed")
            }
            _ = try TypeCatalogue.validate(types, field: "types")
        } catch {
            finish(context, error: error)
            return
        }
        let dates = AuthorizationPolicy.earliestAuthorizedSampleDates(
            for: types, grants: appGrants(context), earliestPermitted: configuration.earliestPermittedMicros)
        reply(context, .earliestAuthorizedSampleDate(dates))
    }

    /// The store-wide floor.
    func handleEarliestPermittedSampleDate(context: CallContext) {
        reply(context, .earliestPermittedSampleDate(configuration.earliestPermittedMicros))
    }

    /// Characteristic values the app may read; a denied one looks exactly like one never set.
    func handleReadCharacteristics(_ types: [ObjectType], context: CallContext) {
        let current = appGrants(context)
        var values: [CharacteristicValue] = []
        do throws(BrokerError) {
            guard !types.isEmpty else { throw BrokerError.invalidArgument("types must not be empty") }
            let descriptors = try TypeCatalogue.validate(types, field: "types")
            let notCharacteristic = descriptors.filter { !$0.isCharacteristic }.map(\.type.identifier)
            guard notCharacteristic.isEmpty else {
                throw BrokerError.invalidArgument("not characteristic types: \(notCharacteristic.joined(separator: ", "))")
            }
            for type in types {
                switch current[type]?.read {
                case nil:
                    throw BrokerError(.authorizationNotDetermined, "the app never asked to read \(type.identifier)")
                case .deny:
                    values.append(CharacteristicValue(type: type, value: nil))
                case .full, .limited:
                    values.append(CharacteristicValue(type: type, value: characteristics[type]))
                }
            }
        } catch {
            finish(context, error: error)
            return
        }
        reply(context, .readCharacteristics(values))
    }

    /// Records the outcome of a store job for RequestStatus's "unknown".
    func noteStoreResult<T>(_ result: Result<T, BrokerError>) {
        switch result {
        case .success: storeHealthy = true
        case .failure(let error) where error.domain == .databaseInaccessible: storeHealthy = false
        case .failure: break
        }
    }
}
