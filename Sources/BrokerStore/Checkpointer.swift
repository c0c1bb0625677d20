import BrokerModel
import Foundation

/// Checkpoints the WAL on a thread and connection of its own, so a commit never waits while pages
/// are copied back into the database file.
///
/// The store's connection reports every commit's WAL length (`Database.onCommit`). From
/// `backgroundBytes` on, the commit wakes this thread, which runs a PASSIVE checkpoint (it never
/// blocks the writer; the writer starts the WAL over once a checkpoint has copied all of it).
/// Should the WAL still reach `inlineBytes` (the thread fell behind a slow disk), the committing
/// thread checkpoints itself, as SQLite's automatic checkpoint would: the WAL stays bounded.
/// The limits are bytes, so a store with 16 KiB pages checkpoints as often as one with 4 KiB pages.
final class Checkpointer: @unchecked Sendable {
    /// The WAL length (bytes) from which a commit asks for a background checkpoint (SQLite's default auto-checkpoint: 1,000 pages of 4 KiB).
    static let backgroundBytes: Int64 = 1_000 * 4_096
    /// The WAL length (bytes) from which the committing thread checkpoints itself.
    static let inlineBytes: Int64 = 128 << 20

    /// `bytes` of WAL in pages of `pageSize` bytes (at least 1).
    static func pages(_ bytes: Int64, pageSize: Int64) -> Int32 {
        Int32(clamping: max(1, bytes / max(512, pageSize)))
    }

    private let connection: Database
    private let condition = NSCondition()
    private var requested = false
    private var stopping = false
    private var running = false
    private var checkpoints = 0

    /// Opens the checkpointing connection to the database at `path`.
    init(path: String, durability: Durability) throws(BrokerError) {
        connection = try Database(path: path, durability: durability)
    }

    /// How many background checkpoints have run.
    var completed: Int {
        condition.lock()
        defer { condition.unlock() }
        return checkpoints
    }

    /// Starts the thread.
    func start() {
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread { [self] in self.run() }
        thread.name = "healthbroker-checkpoint"
        thread.start()
    }

    /// Asks for a checkpoint soon; requests made before it starts coalesce into one. Any thread.
    func request() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread (after a checkpoint in progress) and closes its connection; blocks until done.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
        connection.close()
    }

    /// The thread's body: one PASSIVE checkpoint per wake-up until stopped.
    private func run() {
        while true {
            condition.lock()
            while !requested, !stopping { condition.wait() }
            let stop = stopping
            requested = false
            condition.unlock()
            if stop { break }
            // A failed checkpoint is retried at the next request; the inline one bounds the WAL meanwhile.
            _ = try? connection.checkpoint()
            condition.lock()
            checkpoints += 1
            condition.unlock()
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
