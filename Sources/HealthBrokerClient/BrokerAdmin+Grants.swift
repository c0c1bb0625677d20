import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// The decisions recorded for `appID`, one grant per type it asked for.
    public func grants(for appID: String) async throws(BrokerError) -> [Grant] {
        try await connection.unary(.adminListGrants(.with { $0.appID = appID }), timeout: Self.callTimeout) { response in
            if case .adminListGrants(let list) = response { list.grants.map(Grant.init(proto:)) } else { nil }
        }
    }

    /// Forgets `appID`'s decisions for `types` (every type when empty); returns how many were revoked.
    ///
    /// A revoked type is not determined again, so the app can ask for it again; the change applies at
    /// once to the app's open calls and streams.
    public func revoke(appID: String, types: [ObjectType] = []) async throws(BrokerError) -> UInt32 {
        try await connection.unary(.adminRevoke(.with { $0.appID = appID; $0.types = types.map(\.identifier) }), timeout: Self.callTimeout) { response in
            if case .adminRevoke(let revoked) = response { revoked.revoked } else { nil }
        }
    }

    /// Records the person's decision for `appID` and `type` directly, without a prompt, and returns
    /// the grant as recorded (decided by "admin", now).
    ///
    /// A nil `share` or `read` leaves that part as it was; give at least one (`revoke` forgets a
    /// decision). A limited read is `.limited(from: date)` with a date not in the future; a
    /// characteristic type takes only `read: .full` or `.deny`. The app's very next call sees the
    /// change. Errors: an unregistered app → NOT_FOUND; an unknown type or a rule broken →
    /// INVALID_ARGUMENT.
    public func setGrant(
        appID: String, type: ObjectType, share: ShareDecision? = nil, read: ReadDecision? = nil
    ) async throws(BrokerError) -> Grant {
        let request = TypeDecision(type: type, share: share, read: read).setGrantRequestProto(appID: appID)
        return try await connection.unary(.adminSetGrant(request), timeout: Self.callTimeout) { response throws(BrokerError) in
            guard case .adminSetGrant(let set) = response else { return nil }
            guard let grant = set.grant else { throw .malformedReply(.invalidArgument("grant: missing")) }
            return Grant(proto: grant)
        }
    }

    /// Every app that ever asked for authorization, even one denied everything or since removed.
    public func sources() async throws(BrokerError) -> [Source] {
        try await connection.unary(.adminListSources(.init()), timeout: Self.callTimeout) { response in
            if case .adminListSources(let list) = response { list.sources.map(Source.init(proto:)) } else { nil }
        }
    }

    /// Sets a characteristic of the person (e.g. "1990-04-01", "female", "A+"), or clears it with nil.
    public func setCharacteristic(_ type: ObjectType, value: String?) async throws(BrokerError) {
        let request = CharacteristicValue(type: type, value: value).setRequestProto
        try await connection.unary(.adminSetCharacteristic(request), timeout: Self.callTimeout) { response in
            if case .adminSetCharacteristic = response { () } else { nil }
        }
    }

    /// Why `appID` sees what it sees for `type` (denied, limited from a date, full, never asked): for the operator only.
    public func explain(appID: String, type: ObjectType) async throws(BrokerError) -> Explanation {
        try await connection.unary(.adminExplain(.with { $0.appID = appID; $0.type = type.identifier }), timeout: Self.callTimeout) { response in
            if case .adminExplain(let explanation) = response { Explanation(proto: explanation) } else { nil }
        }
    }
}
