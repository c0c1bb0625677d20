import BrokerModel

extension BrokerConnection {
    /// The connection to send a new call on, and the timeout to send with it (what is left of
    /// `timeout` after any wait).
    ///
    /// While reconnecting, a call with a timeout waits for the link up to that timeout and then fails
    /// with UNAVAILABLE; a call without one fails at once with the error the link went down with.
    /// Task cancellation while waiting is CANCELLED. Once the link has ended, its error.
    func liveCore(timeout: Duration?) async throws(BrokerError) -> (ConnectionCore, Duration?) {
        // Read the clock only if the call has to wait for a link (the usual call does not).
        var started: ContinuousClock.Instant?
        while true {
            switch link.withLock({ $0.route(mayWait: timeout != nil) }) {
            case .use(let core):
                guard let error = core.closedError else { return (core, timeout) }
                coreEnded(core, error)  // it ended and the hook has not run yet: mark it, then route again
            case .fail(let error):
                throw error
            case .wait(let id):
                let budget = timeout ?? .zero  // only calls with a timeout wait
                let since = started ?? ContinuousClock.now
                started = since
                let core = try await awaitLink(id, timeout: budget - (ContinuousClock.now - since)).get()
                let left = budget - (ContinuousClock.now - since)
                guard left > .zero else { throw notBackInTime() }
                return (core, left)
            }
        }
    }

    /// The link's state now and at every change, until it ends for good.
    func stateUpdates() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self, bufferingPolicy: .bufferingNewest(32))
        guard let id = link.withLock({ $0.watch(continuation) }) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.link.withLock { $0.unwatch(id) }
        }
        return stream
    }

    /// Registers the hook that marks the link down when `core` ends.
    func watchEnd(of core: ConnectionCore) {
        core.onClose { [weak self] core, error in self?.coreEnded(core, error) }
    }

    /// `core` ended with `error`: without reconnection the link ends; with it, the link goes down
    /// and the reconnect loop starts. Nothing happens if `core` is no longer the current one.
    func coreEnded(_ core: ConnectionCore, _ error: BrokerError) {
        guard let reconnection else {
            let (waiters, watchers) = link.withLock { link in
                link.core === core ? link.end(error) : ([], [])
            }
            for waiter in waiters { waiter.resume(returning: .failure(error)) }
            for watcher in watchers { watcher.finish() }
            return
        }
        let down = error.code == .unavailable ? error : .connectionClosed(socketPath, error.description)
        guard link.withLock({ $0.markDown(core, down) }) else { return }
        startReconnecting(reconnection)
    }

    /// Waits up to `timeout` for waiter `id` to learn the link is up (or has ended).
    private func awaitLink(_ id: UInt64, timeout: Duration) async -> Link.Outcome {
        let timer = Task { [weak self] in
            try await Task.sleep(for: min(timeout, .seconds(31_536_000)))
            self?.settle(id, with: .failure(self?.notBackInTime() ?? .callCancelled))
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Link.Waiter) in
                if let ready = link.withLock({ $0.park(id, on: continuation) }) {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            self.settle(id, with: .failure(.callCancelled))
        }
    }

    private func settle(_ id: UInt64, with outcome: Link.Outcome) {
        link.withLock { $0.settle(id, with: outcome) }?.resume(returning: outcome)
    }

    /// UNAVAILABLE for a call whose timeout passed while the link was down.
    private func notBackInTime() -> BrokerError {
        let last: String = link.withLock { link in
            if case .down(let error) = link.phase { error.message } else { "" }
        }
        return BrokerError(code: .unavailable, message: "the broker at \(socketPath) did not come back within the call's timeout" + (last.isEmpty ? "" : " (\(last))"))
    }
}
