import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// Registers an app; the returned token is shown this once (the broker keeps only its hash).
    public func addApp(_ registration: AppRegistration) async throws(BrokerError) -> AppCredentials {
        try await connection.unary(.adminAddApp(registration), timeout: Self.callTimeout) { response in
            if case .adminAddApp(let credentials) = response { credentials } else { nil }
        }
    }

    /// Every registered app.
    public func listApps() async throws(BrokerError) -> [AppInfo] {
        try await connection.unary(.adminListApps, timeout: Self.callTimeout) { response in
            if case .adminListApps(let apps) = response { apps } else { nil }
        }
    }

    /// Removes an app and closes its connections; returns how many were closed.
    ///
    /// Its samples stay (they are the person's data) unless `deleteData` is true.
    public func removeApp(_ appID: String, deleteData: Bool = false) async throws(BrokerError) -> UInt32 {
        try await connection.unary(.adminRemoveApp(appID: appID, deleteData: deleteData), timeout: Self.callTimeout) { response in
            if case .adminRemoveApp(let closed) = response { closed } else { nil }
        }
    }

    /// Issues a new token for an app (the old one stops working); shown this once.
    public func rotateToken(_ appID: String) async throws(BrokerError) -> AppCredentials {
        try await connection.unary(.adminRotateToken(appID: appID), timeout: Self.callTimeout) { response in
            if case .adminRotateToken(let credentials) = response { credentials } else { nil }
        }
    }

    /// The broker's version, uptime, connection counts and data directory.
    public func brokerInfo() async throws(BrokerError) -> BrokerInfo {
        try await connection.unary(.adminBrokerInfo, timeout: Self.callTimeout) { response in
            if case .adminBrokerInfo(let info) = response { info } else { nil }
        }
    }
}
