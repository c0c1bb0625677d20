import BrokerModel
import BrokerStore
import BrokerWire

extension Broker {
    /// Streams a call answered by one store job (the correlation Query and AnchoredQuery): the job
    /// runs once a store-read slot is free, `items` turns its result into stream items on the loop,
    /// and they go out under the call's credit; the access log gets one row (`method`, the samples
    /// delivered) when the stream ends or the call ends after delivering some.
    func streamOneStoreRead<T: Sendable>(
        _ context: CallContext, appID: String, method: String, type: ObjectType,
        job: @escaping @Sendable (BrokerStore) throws(BrokerError) -> T,
        items: @escaping (T) -> [StreamItem]
    ) {
        var pending: [StreamItem] = []
        var delivered = 0
        var logged = false
        var fetched = false
        let log = { [weak self] in
            guard let self, !logged else { return }
            logged = true
            self.logAccess(appID: appID, operation: "read", method: method, type: type, count: delivered)
        }
        context.pump = { [weak self, weak context] in
            guard let self, let context, context.isLive, fetched else { return }
            while let item = pending.first {
                guard self.send(item, on: context) else { return }
                delivered += Self.sampleCount(of: item)
                pending.removeFirst()
            }
            self.endStoreRead(context)
            log()
            self.endStream(context)
        }
        context.onEnd = {
            if delivered > 0 { log() }
        }
        let read = { [weak self, weak context] in
            guard let self, let context else { return }
            self.worker.submit(job) { [weak self, weak context] result in
                guard let self, let context, context.isLive else { return }
                self.noteStoreResult(result)
                switch result {
                case .success(let value):
                    pending = items(value)
                    fetched = true
                    context.pump?()
                case .failure(let error):
                    self.endStoreRead(context)
                    self.finish(context, error: error)
                }
            }
        }
        guard beginStoreRead(context) else {
            // No slot now: the first pump after one frees up starts the read.
            let start = context.pump
            context.pump = { [weak self, weak context] in
                guard let self, let context, context.isLive else { return }
                guard self.beginStoreRead(context) else { return }
                context.pump = start
                read()
            }
            return
        }
        read()
    }

    /// The samples an item carries, for the access log (an anchored page counts what it added).
    private static func sampleCount(of item: StreamItem) -> Int {
        switch item {
        case .samples(let samples): samples.count
        case .anchoredPage(let page): page.added.count
        default: 0
        }
    }
}
