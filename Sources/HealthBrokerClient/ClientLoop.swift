#if canImport(Glibc)
import Glibc
#endif
import BrokerModel

/// The thread that drives one logical connection, and the task executor that runs on it.
///
/// The thread (`LoopThread`) reads every socket connection attached to it (a connection and each
/// of its reconnections), expires their calls' deadlines, and runs the jobs of tasks that prefer
/// this executor. A task that runs its calls here (`withTaskExecutorPreference`) is resumed by the
/// very thread that read the reply: one thread wake-up per call instead of two.
///
/// Lifetime: each `ConnectionCore` and its `BrokerConnection` hold the loop; the thread exits once
/// the loop is released, every attached connection has ended and no job is left. A job waiting to
/// run holds the loop too, so the executor outlives the jobs enqueued on it.
final class ClientLoop: TaskExecutor {
    /// The thread and everything it shares with other threads.
    let thread: LoopThread

    /// Starts the loop's thread.
    init() throws(BrokerError) {
        thread = try LoopThread()
        thread.start()
    }

    deinit {
        thread.release()
    }

    /// Queues `job` to run on the loop's thread (it runs after the current read or job, in order).
    func enqueue(_ job: consuming ExecutorJob) {
        thread.enqueue(UnownedJob(job), holder: self)
    }

    /// True on the loop's own thread.
    var isCurrent: Bool { thread.isCurrent }
}
