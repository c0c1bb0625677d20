package import BrokerModel

// The store's size and contents (AdminStoreInfo) between the model and the .proto.
extension StoreInfo {
    /// The store info a decoded AdminStoreInfoResponse holds; a zero cap reads as none.
    package init(proto: Proto.AdminStoreInfoResponse) {
        self.init(
            schemaVersion: proto.schemaVersion, databaseBytes: proto.databaseBytes, freeBytes: proto.freeBytes,
            walBytes: proto.walBytes, maxDatabaseBytes: proto.maxDatabaseBytes == 0 ? nil : proto.maxDatabaseBytes,
            samples: proto.samples, tombstones: proto.tombstones, apps: proto.apps)
    }

    /// The store info as a .proto message.
    package var proto: Proto.AdminStoreInfoResponse {
        .with {
            $0.schemaVersion = schemaVersion
            $0.databaseBytes = databaseBytes
            $0.freeBytes = freeBytes
            $0.walBytes = walBytes
            $0.maxDatabaseBytes = maxDatabaseBytes ?? 0
            $0.samples = samples
            $0.tombstones = tombstones
            $0.apps = apps
        }
    }
}
