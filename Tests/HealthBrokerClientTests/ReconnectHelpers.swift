import BrokerWire
import Foundation
import HealthBrokerClient

/// Reconnect timing for tests: records every wait the reconnect loop asks for and sleeps `pause`
/// instead, drawing jitter from `jitter`.
final class RecordedWaits: Sendable {
    private let delays = Shared<[Duration]>([])
    /// The timing to hand `HealthStore.connect`.
    let timing: ReconnectTiming

    /// Records waits, sleeping `pause` for each, with jitter samples from `jitter` (-1…1).
    init(pause: Duration = .milliseconds(2), jitter: @escaping @Sendable () -> Double = { Double.random(in: -1...1) }) {
        let delays = delays
        timing = ReconnectTiming(jitterSample: jitter) { delay in
            delays.withLock { $0.append(delay) }
            try? await Task.sleep(for: pause)
        }
    }

    /// The waits asked for so far, in order.
    var recorded: [Duration] { delays.current }
}

/// Collects a store's `connectionStates` as they come.
final class StateLog: Sendable {
    private let log = Shared<(states: [ConnectionState], ended: Bool)>(([], false))

    /// Starts collecting `states`.
    init(_ states: AsyncStream<ConnectionState>) {
        let log = log
        Task {
            for await state in states { log.withLock { $0.states.append(state) } }
            log.withLock { $0.ended = true }
        }
    }

    /// The states seen so far.
    var states: [ConnectionState] { log.current.states }

    /// Waits until the sequence ends; false if 10 s pass first.
    func waitForEnd() async -> Bool {
        await waitUntil { self.log.current.ended }
    }
}

extension ConnectionState {
    /// The error of a `disconnected` state.
    var error: BrokerError? {
        if case .disconnected(let error) = self { error } else { nil }
    }
}

extension FakeBroker {
    /// Answers every ping at once (echoing) except those with payload [0], which stay open.
    static let echoButZero: Answer = { call in
        if case .ping(let ping) = call.request, ping.payload == [0] { return [] }
        return echo(call)
    }
}
