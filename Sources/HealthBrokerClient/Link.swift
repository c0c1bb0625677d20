import BrokerModel

/// Where one logical connection to the broker stands: its current socket connection, whether that is
/// up, the callers waiting for it to come back, and who watches its state.
///
/// Pure bookkeeping kept under `BrokerConnection`'s lock (it never takes a connection's own lock). The one thing done under that lock besides
/// bookkeeping is yielding to `AsyncStream` continuations (`publish`): a yield only enqueues the
/// value, never runs user code or calls back, so publications stay in order. Waiters are resumed and
/// state streams finished by the caller, after unlocking.
struct Link {
    /// Whether the link can carry calls.
    enum Phase {
        /// Calls go to `core`.
        case up
        /// Reconnecting after this error (UNAVAILABLE); calls with a timeout wait, others fail with it.
        case down(BrokerError)
        /// For good: every call fails with this error.
        case ended(BrokerError)
    }

    /// What a caller should do with a new call.
    enum Route {
        /// Send it on this connection.
        case use(ConnectionCore)
        /// Fail it with this error.
        case fail(BrokerError)
        /// Wait for the link to come back, as waiter `id`.
        case wait(UInt64)
    }

    /// What a caller waits for: the connection to use, or the error to fail with.
    typealias Outcome = LinkWaiters.Outcome
    /// A suspended waiter.
    typealias Waiter = LinkWaiters.Waiter

    /// The current (or last) socket connection.
    private(set) var core: ConnectionCore
    /// Whether it carries calls.
    private(set) var phase: Phase = .up
    /// The last state published.
    private(set) var state: ConnectionState = .connected
    private var waiters = LinkWaiters()
    private var watchers: [UInt64: AsyncStream<ConnectionState>.Continuation] = [:]
    private var nextWatcher: UInt64 = 1

    /// A link that is up on `core`.
    init(core: ConnectionCore) {
        self.core = core
    }

    /// The connection calls go to while the link is up (it may have ended unnoticed: callers check
    /// its `closedError` after unlocking, since the two locks are never nested).
    var upCore: ConnectionCore? {
        if case .up = phase { core } else { nil }
    }

    /// True once the link has ended for good.
    var isEnded: Bool {
        if case .ended = phase { true } else { false }
    }

    /// Where a new call goes; a call that may wait (it has a timeout) is registered as a waiter.
    mutating func route(mayWait: Bool) -> Route {
        switch phase {
        case .up:
            return .use(core)
        case .ended(let error):
            return .fail(error)
        case .down(let error):
            guard mayWait else { return .fail(error) }
            return .wait(waiters.allocate())
        }
    }

    /// Suspends waiter `id` on `waiter`, or returns its outcome if already known.
    mutating func park(_ id: UInt64, on waiter: Waiter) -> Outcome? {
        waiters.park(id, on: waiter)
    }

    /// Settles waiter `id` with `outcome` (its timeout or cancellation); returns who to resume, if it
    /// was suspended.
    mutating func settle(_ id: UInt64, with outcome: Outcome) -> Waiter? {
        waiters.settle(id, with: outcome)
    }

    /// Marks the link down after `error`, if it is up on `ended`; true when it did.
    mutating func markDown(_ ended: ConnectionCore, _ error: BrokerError) -> Bool {
        guard ended === core, case .up = phase else { return false }
        phase = .down(error)
        publish(.disconnected(error))
        return true
    }

    /// Publishes `connecting` if the link is still down; false when it has ended (stop trying).
    mutating func beginAttempt() -> Bool {
        guard case .down = phase else { return false }
        publish(.connecting)
        return true
    }

    /// Records another failed attempt while down (the error calls now fail with).
    mutating func stillDown(_ error: BrokerError) {
        guard case .down = phase else { return }
        phase = .down(error)
        publish(.disconnected(error))
    }

    /// Brings the link up on `fresh` if it is down; returns the suspended waiters to resume with it,
    /// or nil (the link ended meanwhile: the caller closes `fresh`).
    mutating func bringUp(_ fresh: ConnectionCore) -> [Waiter]? {
        guard case .down = phase else { return nil }
        core = fresh
        phase = .up
        publish(.connected)
        return waiters.settleAll(with: .success(fresh))
    }

    /// Ends the link for good with `error` (if not ended already); returns the suspended waiters to
    /// fail and the state streams to finish.
    mutating func end(_ error: BrokerError) -> (waiters: [Waiter], watchers: [AsyncStream<ConnectionState>.Continuation]) {
        if case .ended = phase { return ([], []) }
        phase = .ended(error)
        publish(.disconnected(error))
        let finished = Array(watchers.values)
        watchers = [:]
        return (waiters.settleAll(with: .failure(error)), finished)
    }

    /// Publishes `state` to every watcher.
    mutating func publish(_ state: ConnectionState) {
        self.state = state
        for watcher in watchers.values { watcher.yield(state) }
    }

    /// Adds a watcher and hands it the current state; returns its id, or nil when the link has
    /// ended (the caller then finishes the stream).
    mutating func watch(_ watcher: AsyncStream<ConnectionState>.Continuation) -> UInt64? {
        watcher.yield(state)
        if case .ended = phase { return nil }
        let id = nextWatcher
        nextWatcher += 1
        watchers[id] = watcher
        return id
    }

    /// Forgets watcher `id` (its stream was dropped).
    mutating func unwatch(_ id: UInt64) {
        watchers[id] = nil
    }
}
