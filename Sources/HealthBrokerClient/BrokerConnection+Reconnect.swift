import BrokerModel

extension BrokerConnection {
    /// Starts the background loop that brings the link back (one runs at a time: it starts only when
    /// the link goes down, and ends when it is up again or has ended).
    ///
    /// Each attempt waits the policy's backoff, connects, and runs the handshake (Hello) before any
    /// call can use the new connection. A refused handshake, or `maxAttempts` failures, ends the link
    /// for good. The loop holds the connection only during an attempt, so releasing it stops the loop.
    func startReconnecting(_ reconnection: Reconnection) {
        let connection: @Sendable () -> BrokerConnection? = { [weak self] in self }
        let socketPath = socketPath
        Task.detached {
            await Self.reconnect(reconnection, socketPath: socketPath, connection: connection)
        }
    }

    private static func reconnect(_ reconnection: Reconnection, socketPath: String, connection: @Sendable () -> BrokerConnection?) async {
        let policy = reconnection.policy
        var failures = 0
        while true {
            if let maxAttempts = policy.maxAttempts, failures >= max(0, maxAttempts) {
                if let connection = connection() {
                    connection.giveUp(.reconnectGaveUp(socketPath, attempts: failures, last: connection.downError))
                }
                return
            }
            await reconnection.timing.sleep(policy.delay(beforeAttempt: failures, jitterSample: reconnection.timing.jitterSample()))
            guard let connection = connection(), connection.link.withLock({ $0.beginAttempt() }) else { return }
            let core: ConnectionCore
            switch await attempt(reconnection, socketPath: socketPath, loop: connection.loop) {
            case .opened(let opened):
                core = opened
            case .refused(let error):
                connection.giveUp(error)
                return
            case .failed(let error):
                failures += 1
                let down = error.code == .unavailable ? error : .connectionClosed(socketPath, "reconnecting failed: \(error)")
                connection.link.withLock { $0.stillDown(down) }
                continue
            }
            guard let waiters = connection.link.withLock({ $0.bringUp(core) }) else {
                core.close(reason: "closed by the client")
                return
            }
            for waiter in waiters { waiter.resume(returning: .success(core)) }
            connection.watchEnd(of: core)
            return
        }
    }

    private enum Attempt {
        case opened(ConnectionCore)
        case failed(BrokerError)
        case refused(BrokerError)
    }

    /// Connects (read by `loop`, the connection's own) and runs the handshake; a refused handshake is
    /// final, any other failure is not.
    private static func attempt(_ reconnection: Reconnection, socketPath: String, loop: ClientLoop) async -> Attempt {
        let core: ConnectionCore
        do {
            core = try ConnectionCore.connect(socketPath: socketPath, loop: loop)
        } catch {
            return .failed(error)
        }
        do {
            try await reconnection.handshake(core)
            return .opened(core)
        } catch {
            core.close(reason: "the session could not be reopened: \(error.message)")
            return Reconnection.isRefusal(error) ? .refused(error) : .failed(error)
        }
    }

    /// The error the link is down with, if it is down.
    private var downError: BrokerError? {
        link.withLock { link in
            if case .down(let error) = link.phase { error } else { nil }
        }
    }

    /// Ends the link for good with `error`: waiting calls and every later call fail with it.
    private func giveUp(_ error: BrokerError) {
        let (waiters, watchers) = link.withLock { $0.end(error) }
        for waiter in waiters { waiter.resume(returning: .failure(error)) }
        for watcher in watchers { watcher.finish() }
    }
}
