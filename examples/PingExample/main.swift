// ping-example: the smallest HealthBroker app. It registers nothing itself; an admin registers it
// once and hands over its id and token:
//
//     TOKEN=$(healthctl apps add com.example.ping --name "Ping Example" --token-only)
//     HEALTHBROKER_APP_ID=com.example.ping HEALTHBROKER_APP_TOKEN=$TOKEN ping-example --count 5
//
// It opens a session (Hello), prints what the broker said, then times a few pings.
import CommandLineSupport
import Foundation
import HealthBrokerClient

let spec = CommandSpec(
    "ping-example",
    summary: "Open a session with HealthBroker and time a few pings.",
    options: [
        .option("socket", value: "PATH", help: "The broker's app socket.",
                default: HealthStore.defaultSocketPath, environment: "HEALTHBROKER_APP_SOCKET"),
        .option("app-id", value: "ID", help: "The id registered with 'healthctl apps add'.",
                environment: "HEALTHBROKER_APP_ID"),
        .option("token", value: "TOKEN", help: "The app's token (prefer the variable: arguments show in ps).",
                environment: "HEALTHBROKER_APP_TOKEN"),
        .option("count", value: "N", help: "How many pings to time.", default: "3"),
    ],
    version: BrokerVersion.broker)

await CommandLineTool.run(spec: spec) { command in
    let socket = try command.requiredString("socket")
    let appID = try command.requiredString("app-id")
    let token = try command.requiredString("token")
    let count = try command.int("count", in: 0...100_000) ?? 3

    // 1. Connect and say Hello: the broker checks the id and token and describes the session.
    let store: HealthStore
    do {
        store = try await HealthStore.connect(socketPath: socket, appID: appID, appToken: token)
    } catch let error as BrokerError {
        throw ExampleFailure(connecting: error, socket: socket)
    }
    defer { store.close() }

    let session = store.session
    let localClock = Date()
    print("connected to HealthBroker \(session.brokerVersion) (protocol \(session.protocolVersion)) as \(appID)")
    let offset = signedMicros(localClock.timeIntervalSince(session.brokerClock))
    print("  broker clock: \(iso8601(session.brokerClock))")
    print("  local clock:  \(iso8601(localClock)) (local - broker: \(offset) µs, including Hello's trip)")
    print("  limits: frames up to \(session.maxFrameBytes) bytes, \(session.maxCallsInFlight) calls in flight")

    // 2. Time a few pings: each is one round trip through the broker.
    for index in 0..<count {
        let start = ContinuousClock.now
        _ = try await store.ping(payload: Array("ping \(index + 1)".utf8))
        print("ping \(index + 1): \(microseconds(start.duration(to: .now))) µs")
    }

    // 2b. The same from a task that prefers the store's executor: the reply resumes this code on the
    //     connection's own thread, one thread wake-up per call instead of two.
    try await withTaskExecutorPreference(store.executor) {
        for index in 0..<count {
            let start = ContinuousClock.now
            _ = try await store.ping(payload: Array("ping \(index + 1)".utf8))
            print("ping \(index + 1) on the store's executor: \(microseconds(start.duration(to: .now))) µs")
        }
    }

    // 3. Ask the broker to wait 50 ms before it answers: the round trip grows by that much.
    let start = ContinuousClock.now
    _ = try await store.ping(delay: .milliseconds(50))
    print("ping with a 50 ms delay: \(microseconds(start.duration(to: .now))) µs")

    // 4. Give a call less time than it needs: the broker ends it with DEADLINE_EXCEEDED.
    do {
        _ = try await store.ping(delay: .milliseconds(50), timeout: .milliseconds(10))
        print("ping with a 50 ms delay and a 10 ms timeout: answered in time (unexpected)")
    } catch let error as BrokerError where error.code == .deadlineExceeded {
        print("ping with a 50 ms delay and a 10 ms timeout: \(error)")
    }
}

/// Why the example could not open its session, with a hint at the usual cause.
struct ExampleFailure: Error, CustomStringConvertible {
    /// The message `CommandLineTool` prints after `error: `.
    let description: String

    /// Explains a failed `HealthStore.connect` to the broker at `socket`.
    init(connecting error: BrokerError, socket: String) {
        let hint = switch error.code {
        case .unavailable: "is healthbrokerd running? socket: \(socket)"
        case .unauthenticated: "is the app registered ('healthctl apps list') and its token current?"
        default: "socket: \(socket)"
        }
        description = "cannot open a session: \(error)\nhint: \(hint)"
    }
}

/// `duration` in whole microseconds.
func microseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
}

/// `seconds` in whole microseconds with an explicit sign (`+12`, `-3`).
func signedMicros(_ seconds: TimeInterval) -> String {
    let micros = Int64((seconds * 1e6).rounded())
    return micros >= 0 ? "+\(micros)" : "\(micros)"
}

/// `date` as UTC ISO-8601 with milliseconds.
func iso8601(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}
