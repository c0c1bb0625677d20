extension HealthStore {
    /// The task executor that runs on this store's connection thread, for the lowest call latency.
    ///
    /// Run call-heavy code with `withTaskExecutorPreference(store.executor) { … }`. A reply then
    /// wakes only the connection's thread, which reads it and goes on with your task at once, instead
    /// of handing the task to another thread: one thread wake-up per call instead of two. The same
    /// thread serves the store's reconnections.
    ///
    /// Code on this executor must not block (sleeping, waiting on a lock or a semaphore, synchronous
    /// I/O): while it runs, the connection reads nothing. Keep the store alive while tasks prefer
    /// its executor.
    public var executor: any TaskExecutor { connection.loop }
}
