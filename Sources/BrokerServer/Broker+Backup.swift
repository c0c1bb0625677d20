import BrokerModel
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// AdminBackup: a consistent copy of the whole store, written by the store worker (never the
    /// loop: a large store takes seconds), to a new file the broker creates at 0600.
    func handleBackup(_ path: String, context: CallContext) {
        guard path.hasPrefix("/") else {
            // The broker's working directory is not the caller's: a relative path would surprise.
            finish(context, error: .invalidArgument("the backup path must be absolute: \(path)"))
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.backup(to: path)
        }) { [weak self] result in
            guard let self else { return }
            // Not `noteStoreResult`: a destination that is full or unwritable says nothing about the store.
            switch result {
            case .success(let backup):
                self.logger.info("backup written", ["path": backup.path, "bytes": backup.bytes, "pages": backup.pages])
                self.reply(context, .adminBackup(.with { $0.path = backup.path; $0.bytes = backup.bytes; $0.pages = backup.pages }))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }
}
