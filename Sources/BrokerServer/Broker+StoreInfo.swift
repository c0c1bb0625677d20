import BrokerModel
import BrokerStore
import BrokerWire

extension Broker {
    /// AdminStoreInfo: the store's size on disk and what it holds, read on the store worker.
    func handleAdminStoreInfo(_ request: Proto.AdminStoreInfoRequest, context: CallContext) {
        worker.submit({ store throws(BrokerError) in
            try store.info()
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            switch result {
            case .success(let info): self.reply(context, .adminStoreInfo(info.proto))
            case .failure(let error): self.finish(context, error: error)
            }
        }
    }
}
