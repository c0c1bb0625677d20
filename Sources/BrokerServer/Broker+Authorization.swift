import BrokerModel
import BrokerPolicy
import BrokerTransport
import BrokerWire

extension Broker {
    /// The grants of the app this session proved to be.
    func appGrants(_ context: CallContext) -> AppGrants {
        guard let session = context.session else { return AppGrants() }
        return appGrants(session)
    }

    /// The grants of the app `session` proved to be; kept on the session until any grant changes,
    /// so a look-up per call neither hashes the app id nor copies the grants.
    func appGrants(_ session: Session) -> AppGrants {
        if let cached = session.cachedGrants, session.cachedGrantsGeneration == grantsGeneration { return cached }
        let current = session.appID.flatMap { grants[$0] } ?? AppGrants()
        session.cachedGrants = current
        session.cachedGrantsGeneration = grantsGeneration
        return current
    }

    /// AuthorizationStatus: share status only; answered from memory on the loop thread.
    func answerAuthorizationStatus(_ type: ObjectType, callID: UInt64, session: Session) {
        do throws(BrokerError) {
            try TypeCatalogue.requireKnown(type, field: "type")
        } catch {
            session.connection.send(ServerFrame(callID: callID, status: Status(error)))
            return
        }
        let status = AuthorizationPolicy.authorizationStatus(for: type, grants: appGrants(session))
        session.connection.send { WireCodec.appendAuthorizationStatusReply(callID: callID, status: status, to: &$0) }
    }

    /// RequestStatus: whether asking for these sets would prompt; unknown while the database is inaccessible.
    func answerRequestStatus(share: [ObjectType], read: [ObjectType], callID: UInt64, session: Session) {
        do throws(BrokerError) {
            try AuthorizationPolicy.validateTypeSets(share: share, read: read)
        } catch {
            session.connection.send(ServerFrame(callID: callID, status: Status(error)))
            return
        }
        let status = storeHealthy
            ? AuthorizationPolicy.requestStatus(share: share, read: read, grants: appGrants(session))
            : RequestStatus.unknown
        session.connection.send { WireCodec.appendRequestStatusReply(callID: callID, status: status, to: &$0) }
    }

    /// EarliestAuthorizedSampleDate: earliest readable dates for limited grants only, exactly as the
    /// reference page says. Encodes the reply straight from the policy's list into the connection's
    /// output (the bytes of a `.earliestAuthorizedSampleDate` dictionary response).
    ///
    /// The identifiers come as the generated reader resolved them: when every one is exactly a
    /// catalogued identifier (the usual call) the types are the catalogue's, taken by index, with no
    /// look-up and no array; otherwise they are made as `ObjectType(protoIdentifier:)` makes them,
    /// and unknown ones get the same error as ever.
    func answerEarliestAuthorizedSampleDate(_ identifiers: [ProtoTypeIdentifier], callID: UInt64, session: Session) {
        guard identifiers.count <= AuthorizationPolicy.maxTypesPerRequest else {
            let error = BrokerError.invalidArgument("types holds \(identifiers.count) entries; at most \(AuthorizationPolicy.maxTypesPerRequest) are allowed")
            session.connection.send(ServerFrame(callID: callID, status: Status(error)))
            return
        }
        var allCatalogued = true
        for identifier in identifiers where identifier.catalogueIndex < 0 {
            allCatalogued = false
            break
        }
        if allCatalogued {
            // The catalogue indexes the reader found, on the stack: no `ObjectType` is made.
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(identifiers.count, 1)) { scratch in
                identifiers.withUnsafeBufferPointer { identifiers in
                    for position in identifiers.indices { scratch[position] = identifiers[position].catalogueIndex }
                }
                let indexes = UnsafeBufferPointer(rebasing: scratch[..<identifiers.count])
                answerEarliestAuthorizedSampleDate(catalogueIndexes: indexes, callID: callID, session: session)
            }
            return
        }
        let types = identifiers.map(\.objectType)
        do throws(BrokerError) {
            try TypeCatalogue.requireKnown(types, field: "types")
        } catch {
            session.connection.send(ServerFrame(callID: callID, status: Status(error)))
            return
        }
        // Every type is known now, and `ObjectType` spells a catalogued type as the catalogue does
        // (a Kelvin-sign spelling included), so the rest goes by index as the usual call does.
        let indexes = types.map { type -> Int32 in
            guard let index = TypeCatalogue.spelledIndex(of: type) else {
                preconditionFailure("\(type.identifier) is catalogued but not spelled as the catalogue spells it")
            }
            return Int32(index)
        }
        indexes.withUnsafeBufferPointer { answerEarliestAuthorizedSampleDate(catalogueIndexes: $0, callID: callID, session: session) }
    }

    /// EarliestAuthorizedSampleDate for the catalogued types at `indexes`: the reply of
    /// `answerEarliestAuthorizedSampleDate(catalogued:)` for those types, by index throughout.
    private func answerEarliestAuthorizedSampleDate(catalogueIndexes indexes: UnsafeBufferPointer<Int32>, callID: UInt64, session: Session) {
        let grants = appGrants(session)
        let earliestPermitted = configuration.earliestPermittedMicros
        let capacity = max(min(indexes.count, TypeCatalogue.count), 1)
        withUnsafeTemporaryAllocation(of: Proto.TypeDate.Catalogued.self, capacity: capacity) { scratch in
            var count = 0
            AuthorizationPolicy.forEachEarliestAuthorizedSampleDate(
                forCatalogueIndexes: indexes, grants: grants, earliestPermitted: earliestPermitted
            ) { index, date in
                precondition(count < scratch.count, "more distinct types than the catalogue holds")
                (scratch.baseAddress.unsafelyUnwrapped + count).initialize(to: Proto.TypeDate.Catalogued(type: index, dateMicros: date))
                count += 1
            }
            session.connection.send { output in
                WireCodec.appendEarliestAuthorizedSampleDateReply(
                    callID: callID, catalogued: UnsafeMutableBufferPointer(rebasing: scratch[..<count]), to: &output)
            }
        }
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
        reply(context, .readCharacteristics(.with { $0.values = values.map(\.proto) }))
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
