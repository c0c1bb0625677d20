import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// The decisions recorded for `appID`, one grant per type it asked for.
    public func grants(for appID: String) async throws(BrokerError) -> [Grant] {
        try await connection.unary(.adminListGrants(appID: appID), timeout: Self.callTimeout) { response in
            if case .adminListGrants(let grants) = response { grants } else { nil }
        }
    }

    /// Forgets `appID`'s decisions for `types` (every type when empty); returns how many were revoked.
    ///
    /// A revoked type is not determined again, so the app can ask for it again; the change applies at
    /// once to the app's open calls and streams.
    public func revoke(appID: String, types: [ObjectType] = []) async throws(BrokerError) -> UInt32 {
        try await connection.unary(.adminRevoke(appID: appID, types: types), timeout: Self.callTimeout) { response in
            if case .adminRevoke(let revoked) = response { revoked } else { nil }
        }
    }

    /// Every app that ever asked for authorization, even one denied everything or since removed.
    public func sources() async throws(BrokerError) -> [Source] {
        try await connection.unary(.adminListSources, timeout: Self.callTimeout) { response in
            if case .adminListSources(let sources) = response { sources } else { nil }
        }
    }

    /// Sets a characteristic of the person (e.g. "1990-04-01", "female", "A+"), or clears it with nil.
    public func setCharacteristic(_ type: ObjectType, value: String?) async throws(BrokerError) {
        let request = Request.adminSetCharacteristic(CharacteristicValue(type: type, value: value))
        try await connection.unary(request, timeout: Self.callTimeout) { response in
            if case .adminSetCharacteristic = response { () } else { nil }
        }
    }

    /// Why `appID` sees what it sees for `type` (denied, limited from a date, full, never asked): for the operator only.
    public func explain(appID: String, type: ObjectType) async throws(BrokerError) -> Explanation {
        try await connection.unary(.adminExplain(appID: appID, type: type), timeout: Self.callTimeout) { response in
            if case .adminExplain(let explanation) = response { explanation } else { nil }
        }
    }
}
