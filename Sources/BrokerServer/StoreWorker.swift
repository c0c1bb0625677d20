import BrokerModel
import BrokerSupport
import BrokerStore
import BrokerTransport
import Foundation

/// The one thread that talks to SQLite: jobs run there in order, results go back to the loop.
///
/// `submit` is called on the loop thread; the job runs on the worker thread with the store; the
/// completion runs on the loop thread (through `EventLoop.execute`). The store is touched only by
/// the worker thread after `start`.
///
/// With a `WALSyncer`, a job's result goes to the loop only once every commit made up to the end
/// of that job is durable (fsynced off this thread), so no caller learns of a write, its own or
/// another app's, that a power cut could still take back.
final class StoreWorker: @unchecked Sendable {
    private let store: BrokerStore
    private let loop: EventLoop
    /// Holds results back until the commits they saw are durable; nil when a killed process is all
    /// the broker must survive.
    private let syncer: WALSyncer?
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    private var finished = false
    /// Jobs submitted and not yet completed on the loop.
    private(set) var outstanding = 0

    /// WAL fsyncs the syncer has made (0 without one). Any thread.
    var walFsyncs: Int { syncer?.completedSyncs ?? 0 }

    /// A worker for `store`; pass a `syncer` to acknowledge only durable writes.
    init(store: BrokerStore, loop: EventLoop, syncer: WALSyncer? = nil) {
        self.store = store
        self.loop = loop
        self.syncer = syncer
    }

    func start() {
        syncer?.start()
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
        loop.assertInLoop()
        outstanding += 1
        let store = self.store
        let deliver = onLoop(completion)
        let work: () -> Void = {
            let result: Result<T, BrokerError>
            do throws(BrokerError) {
                result = .success(try job(store))
            } catch {
                result = .failure(error)
            }
            deliver(result)
        }
        enqueue(.work(work)) { completion(.failure(.shuttingDown())) }
    }

    /// Saves `samples` as `appID` on the worker, in one transaction with any other saves queued
    /// behind the same wake-up (group commit), and runs `completion` with its own result on the loop.
    /// `method` and `batchID` are for the access log (`SaveRequest`).
    func submitSave(_ samples: [Sample], as appID: String, method: String = "Save", batchID: String = "", completion: @escaping (Result<SaveOutcome, BrokerError>) -> Void) {
        loop.assertInLoop()
        outstanding += 1
        let request = SaveRequest(samples: samples, sourceAppID: appID, method: method, batchID: batchID)
        let save = SaveJob(request: request, deliver: onLoop(completion))
        enqueue(.save(save)) { completion(.failure(.shuttingDown())) }
    }

    /// A function for the worker thread that hands a result to `completion` on the loop thread
    /// (and counts the job done there). Called on the loop thread.
    ///
    /// `completion` is bound to the loop: made there, called there (both asserted). The result is
    /// not: the worker makes it and hands it on, through the syncer's thread when there is one, to
    /// the loop, each thread letting go of it as it passes it on.
    private func onLoop<T>(_ completion: @escaping (Result<T, BrokerError>) -> Void) -> (Result<T, BrokerError>) -> Void {
        let loop = self.loop
        let bound = LoopBound(completion, loop: loop)
        let hop: @Sendable (Result<T, BrokerError>) -> Void = { [self] result in
            let carried = HandOff(result)
            loop.execute { [self] in
                self.outstanding -= 1
                bound.value(carried.take())
            }
        }
        guard let syncer else { return hop }
        let store = self.store
        return { result in
            let carried = HandOff(result)
            let delivery = WALSyncer.Delivery(release: { hop(carried.take()) }, fail: { hop(.failure($0)) })
            syncer.deliver(afterCommit: store.commits, delivery)
        }
    }

    /// Queues `job` and wakes the thread; runs `refused` (on this thread) once stopping.
    private func enqueue(_ job: Job, refused: () -> Void) {
        condition.lock()
        if stopping {
            condition.unlock()
            outstanding -= 1
            refused()
            return
        }
        jobs.append(job)
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

    /// Runs a drained batch in order; each run of consecutive saves shares one transaction.
    private func run(_ batch: [Job]) {
        var saves: [SaveJob] = []
        for job in batch {
            switch job {
            case .save(let save):
                saves.append(save)
            case .work(let work):
                runSaves(saves)
                saves.removeAll()
                work()
            }
        }
        runSaves(saves)
    }

    /// Saves a group in one transaction and hands each its result; a failed commit fails them all.
    private func runSaves(_ saves: [SaveJob]) {
        guard !saves.isEmpty else { return }
        let results: [Result<SaveOutcome, BrokerError>]
        do throws(BrokerError) {
            results = try store.saveSampleGroups(saves.map(\.request), now: Microseconds.now())
        } catch {
            results = Array(repeating: .failure(error), count: saves.count)
        }
        for (save, result) in zip(saves, results) { save.deliver(result) }
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
            run(batch)
        }
        // Results still waiting for an fsync get it before SQLite's last close removes the WAL.
        syncer?.stop()
        store.close()
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A queued unit of store work.
private enum Job {
    /// Any job: runs alone.
    case work(() -> Void)
    /// A save, which may share a transaction with the saves queued next to it.
    case save(SaveJob)
}

/// A queued save and where its result goes.
private struct SaveJob {
    /// What to save.
    let request: SaveRequest
    /// Hands the result back (to the loop).
    let deliver: (Result<SaveOutcome, BrokerError>) -> Void
}
