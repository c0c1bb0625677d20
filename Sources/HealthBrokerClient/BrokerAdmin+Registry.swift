import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// Registers an app; the returned token is shown this once (the broker keeps only its hash).
    public func addApp(_ registration: AppRegistration) async throws(BrokerError) -> AppCredentials {
        try await connection.unary(.adminAddApp(registration.proto), timeout: Self.callTimeout) { response throws(BrokerError) in
            if case .adminAddApp(let added) = response { try AppCredentials(proto: added.app, token: added.appToken) } else { nil }
        }
    }

    /// Every registered app.
    public func listApps() async throws(BrokerError) -> [AppInfo] {
        try await connection.unary(.adminListApps(.init()), timeout: Self.callTimeout) { response in
            if case .adminListApps(let list) = response { list.apps.map(AppInfo.init(proto:)) } else { nil }
        }
    }

    /// Removes an app and closes its connections; returns how many were closed.
    ///
    /// Its samples stay (they are the person's data) unless `deleteData` is true.
    public func removeApp(_ appID: String, deleteData: Bool = false) async throws(BrokerError) -> UInt32 {
        try await connection.unary(.adminRemoveApp(.with { $0.appID = appID; $0.deleteData = deleteData }), timeout: Self.callTimeout) { response in
            if case .adminRemoveApp(let removed) = response { removed.connectionsClosed } else { nil }
        }
    }

    /// Issues a new token for an app (the old one stops working); shown this once.
    public func rotateToken(_ appID: String) async throws(BrokerError) -> AppCredentials {
        try await connection.unary(.adminRotateToken(.with { $0.appID = appID }), timeout: Self.callTimeout) { response throws(BrokerError) in
            if case .adminRotateToken(let rotated) = response { try AppCredentials(proto: rotated.app, token: rotated.appToken) } else { nil }
        }
    }

    /// The broker's version, uptime, connection counts and data directory.
    public func brokerInfo() async throws(BrokerError) -> BrokerInfo {
        try await connection.unary(.adminBrokerInfo(.init()), timeout: Self.callTimeout) { response in
            if case .adminBrokerInfo(let info) = response { BrokerInfo(proto: info) } else { nil }
        }
    }
}
