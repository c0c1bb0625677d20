import BrokerModel
import BrokerSupport
import BrokerTransport
import BrokerWire

extension Broker {
    /// Stops accepting, refuses new calls, and lets calls in flight finish within the grace period.
    func beginShutdown(reason: String) {
        loop.assertInLoop()
        guard state == .running else { return }
        state = .draining
        configuration.onStopping?()
        let inFlight = sessions.values.reduce(0) { $0 + $1.calls.count }
        logger.info("shutting down", ["reason": reason, "calls_in_flight": inFlight, "grace_ms": configuration.shutdownGraceMicros / 1_000])
        appListener?.close()
        adminListener?.close()
        // Streams that never end on their own (prompt watchers, observers) must not hold up the exit.
        for agent in Array(agents.values) { finish(agent.context, error: .shuttingDown()) }
        for observer in Array(observers.values) { finish(observer.context, error: .shuttingDown()) }
        shutdownTimer = loop.schedule(afterMicros: configuration.shutdownGraceMicros) { [weak self] in
            self?.finishShutdown()
        }
        checkDrained()
    }

    /// Finishes the shutdown early once nothing is in flight.
    func checkDrained() {
        guard state == .draining else { return }
        let busy = sessions.values.contains { !$0.calls.isEmpty } || worker.outstanding > 0
        if !busy { finishShutdown() }
    }

    /// Fails what is left with UNAVAILABLE, closes connections, the store and the loop.
    func finishShutdown() {
        loop.assertInLoop()
        guard state == .draining else { return }
        state = .stopped
        logger.info("closing connections", ["calls_failed": sessions.values.reduce(0) { $0 + $1.calls.count }])
        if let shutdownTimer { loop.cancelTimer(shutdownTimer) }
        let error = BrokerError.shuttingDown()
        for session in Array(sessions.values) {
            for context in Array(session.calls.values) { finish(context, error: error) }
            session.connection.closeNow(with: error)
        }
        worker.stopAndWait()
        for watcher in signalWatchers { watcher.close() }
        signalWatchers.removeAll()
        loop.close()
    }
}
