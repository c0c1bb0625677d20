import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// The store's size on disk (database, free space, WAL, cap) and how many samples, tombstones and apps it holds.
    public func storeInfo() async throws(BrokerError) -> StoreInfo {
        try await connection.unary(.adminStoreInfo(.init()), timeout: Self.callTimeout) { response in
            if case .adminStoreInfo(let info) = response { StoreInfo(proto: info) } else { nil }
        }
    }
}
