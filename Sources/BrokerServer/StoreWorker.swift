import BrokerCore
import BrokerStore
import BrokerTransport
import Foundation

/// The one thread that talks to SQLite: jobs run there in order, results go back to the loop.
///
/// `submit` is called on the loop thread; the job runs on the worker thread with the store; the
/// completion runs on the loop thread (through `EventLoop.execute`). The store is touched only by
/// the worker thread after `start`.
final class StoreWorker: @unchecked Sendable {
    private let store: BrokerStore
    private let loop: EventLoop
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopping = false
    private var finished = false
    /// Jobs submitted and not yet completed on the loop.
    private(set) var outstanding = 0

    init(store: BrokerStore, loop: EventLoop) {
        self.store = store
        self.loop = loop
    }

    func start() {
        // The thread's block holds the worker until the thread ends; the worker does not hold the
        // Thread back (that cycle kept the worker, the store and the whole EventLoop alive for ever).
        let thread = Thread { [self] in self.runJobs() }
        thread.name = "healthbroker-store"
        thread.start()
    }

    /// Runs `job` on the worker and `completion` with its result on the loop thread.
    func submit<T>(
        _ job: @escaping @Sendable (BrokerStore) throws(BrokerError) -> T,
        completion: @escaping (Result<T, BrokerError>) -> Void
    ) {
        outstanding += 1
        let bound = LoopBound(completion)
        let store = self.store
        let loop = self.loop
        let work: () -> Void = { [self] in
            let result: Result<T, BrokerError>
            do throws(BrokerError) {
                result = .success(try job(store))
            } catch {
                result = .failure(error)
            }
            let carried = LoopBound(result)
            loop.execute { [self] in
                self.outstanding -= 1
                bound.value(carried.value)
            }
        }
        condition.lock()
        if stopping {
            condition.unlock()
            outstanding -= 1
            completion(.failure(.shuttingDown()))
            return
        }
        jobs.append(work)
        condition.signal()
        condition.unlock()
    }

    /// Finishes queued jobs, then stops the thread and closes the store; blocks until done.
    func stopAndWait() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopping { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            let done = batch.isEmpty && stopping
            condition.unlock()
            if done { break }
            for job in batch { job() }
        }
        store.close()
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
