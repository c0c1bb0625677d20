public import BrokerModel
import Foundation

/// Makes commits survive power loss on a thread of its own, and holds back every result that saw
/// a commit until an fsync of the WAL that began after that commit has returned.
///
/// With `synchronous=NORMAL` a commit writes its WAL frames and returns without an fsync: a killed
/// process loses nothing, a power cut may lose the last commits. `synchronous=FULL` fsyncs inside
/// the commit, so the one writing thread waits for the disk after every transaction. This type
/// gives FULL's guarantee to whoever is told about a write, without that wait: the writer commits
/// under NORMAL and goes on with the next transaction, while this thread fsyncs the WAL and then
/// releases the results of everything committed before the fsync began. Commits that land while an
/// fsync runs share the next one (group commit, pipelined).
///
/// The writer numbers its commits (`BrokerStore.commits`) and hands each result over with the
/// number current when the result was made (`deliver(afterCommit:_:)`): a result made after commit
/// n, including a read that saw it, is released only once commit n is on disk. A result that saw
/// nothing unsynced runs at once, on the caller's thread.
///
/// A failed fsync poisons the syncer: Linux reports a write-back error once and may then report
/// success for a WAL whose earlier frames never reached the disk, so every result still waiting,
/// and every later one that saw a commit, fails with `DATA_LOSS` until the broker restarts.
///
/// One more thing makes this safe: SQLite's checkpoint fsyncs the WAL before it copies it back and
/// the database file after, so frames the writer later overwrites (when it starts the WAL over)
/// were already durable in the database file.
public final class WALSyncer: @unchecked Sendable {
    /// A held-back result: `release` hands it on; `fail` reports that it could not be made durable.
    public struct Delivery: Sendable {
        /// Hands the result on (e.g. to the event loop).
        let release: @Sendable () -> Void
        /// Hands on an error instead.
        let fail: @Sendable (BrokerError) -> Void

        /// A delivery that runs `release`, or `fail` with the fsync's error.
        public init(release: @escaping @Sendable () -> Void, fail: @escaping @Sendable (BrokerError) -> Void) {
            self.release = release
            self.fail = fail
        }
    }

    /// Makes every commit so far durable (an fsync of the WAL); runs on the syncer's thread.
    private let sync: @Sendable () throws(BrokerError) -> Void
    private let condition = NSCondition()
    /// Deliveries waiting for an fsync, with the commit each waits for.
    private var waiting: [(commit: UInt64, delivery: Delivery)] = []
    /// The highest commit number handed over so far.
    private var handedThrough: UInt64 = 0
    /// Every commit up to this number is on disk.
    private var syncedThrough: UInt64 = 0
    private var syncs = 0
    /// Set by the first failed fsync; every later delivery that waits for one fails with it.
    private var failure: BrokerError?
    private var stopping = false
    private var running = false

    /// A syncer for the WAL of the database at `databasePath`.
    public convenience init(databasePath: String) {
        let file = WALFile(path: databasePath + "-wal")
        self.init { () throws(BrokerError) in try file.sync() }
    }

    /// A syncer that calls `sync` to make every commit so far durable (tests pass their own).
    init(sync: @escaping @Sendable () throws(BrokerError) -> Void) {
        self.sync = sync
    }

    /// How many fsyncs have run.
    public var completedSyncs: Int {
        condition.lock()
        defer { condition.unlock() }
        return syncs
    }

    /// Starts the thread.
    public func start() {
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread { [self] in self.run() }
        thread.name = "healthbroker-walsync"
        thread.start()
    }

    /// Runs `delivery` once commit number `commit` is durable: at once on this thread if it is,
    /// otherwise on the syncer's thread after the next fsync. Commit 0 means "saw no commit".
    /// Before `start()` and after `stop()` it syncs on the calling thread if it must. Call it from
    /// one thread only, the store's (the one that made the commits).
    public func deliver(afterCommit commit: UInt64, _ delivery: Delivery) {
        condition.lock()
        if commit <= syncedThrough {
            condition.unlock()
            delivery.release()
            return
        }
        if let failure {
            condition.unlock()
            delivery.fail(failure)
            return
        }
        guard running else {
            condition.unlock()
            syncNow(through: commit, [(commit, delivery)])
            return
        }
        handedThrough = max(handedThrough, commit)
        waiting.append((commit, delivery))
        condition.signal()
        condition.unlock()
    }

    /// Syncs and releases whatever is waiting, then stops the thread; blocks until it has.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    /// The thread's body: one fsync per wake-up for everything waiting, until stopped and drained.
    private func run() {
        while true {
            condition.lock()
            while waiting.isEmpty, !stopping { condition.wait() }
            if waiting.isEmpty {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            // Everything handed over so far was committed before this fsync starts.
            let through = handedThrough
            let batch = waiting
            waiting.removeAll(keepingCapacity: true)
            condition.unlock()
            syncNow(through: through, batch)
        }
    }

    /// Fsyncs, records `through` as durable, and releases (or fails) `batch`.
    private func syncNow(through: UInt64, _ batch: [(commit: UInt64, delivery: Delivery)]) {
        var failed: BrokerError?
        do throws(BrokerError) {
            try sync()
        } catch {
            failed = BrokerError(code: .dataLoss, message: "the write was committed but may not survive a power cut: \(error.message)")
        }
        condition.lock()
        syncs += 1
        if let failed, failure == nil { failure = failed }
        if failure == nil { syncedThrough = max(syncedThrough, through) }
        let outcome = failure
        condition.unlock()
        for (_, delivery) in batch {
            if let outcome { delivery.fail(outcome) } else { delivery.release() }
        }
    }
}
