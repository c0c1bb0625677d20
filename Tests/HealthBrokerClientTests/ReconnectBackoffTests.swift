import Foundation
import Testing
import HealthBrokerClient

/// The waits between reconnection attempts: the policy's arithmetic, and what the store asks for.
@Suite("Reconnect backoff")
struct ReconnectBackoffTests {
    static func ms(_ values: [Int]) -> [Duration] { values.map { .milliseconds($0) } }

    @Test func theStandardPolicy() {
        let policy = ReconnectPolicy.standard
        #expect(policy == ReconnectPolicy())
        #expect(policy.initialDelay == .milliseconds(50))
        #expect(policy.maxDelay == .seconds(5))
        #expect(policy.multiplier == 2)
        #expect(policy.jitter == 0.2)
        #expect(policy.maxAttempts == nil)
        #expect((0..<9).map { policy.baseDelay(beforeAttempt: $0) } == Self.ms([50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]))
        #expect(policy.delayRange(beforeAttempt: 0) == .milliseconds(40)...(.milliseconds(60)))
        #expect(policy.delayRange(beforeAttempt: 20) == .seconds(4)...(.seconds(6)))
    }

    @Test func jitterStaysWithinItsBand() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(10), maxDelay: .seconds(1), multiplier: 3, jitter: 0.25)
        for attempt in 0..<12 {
            let base = policy.baseDelay(beforeAttempt: attempt)
            #expect(policy.delay(beforeAttempt: attempt, jitterSample: 0) == base)
            #expect(policy.delayRange(beforeAttempt: attempt) == base * 0.75...base * 1.25)
            for _ in 0..<200 {
                let delay = policy.delay(beforeAttempt: attempt, jitterSample: Double.random(in: -1...1))
                #expect(policy.delayRange(beforeAttempt: attempt).contains(delay))
            }
        }
    }

    @Test func oddSettingsAreTamed() {
        let shrinking = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1), multiplier: 0.5, jitter: 0)
        #expect(shrinking.baseDelay(beforeAttempt: 5) == .milliseconds(100), "a multiplier below 1 counts as 1")
        let wild = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1), multiplier: 2, jitter: 7)
        #expect(wild.delay(beforeAttempt: 0, jitterSample: -1) == .zero, "jitter is clamped to 100 %")
        #expect(wild.delay(beforeAttempt: 0, jitterSample: 5) == .milliseconds(200), "samples are clamped to ±1")
        let negative = ReconnectPolicy(initialDelay: .milliseconds(-5), maxDelay: .seconds(1))
        #expect(negative.baseDelay(beforeAttempt: 0) == .zero)
        #expect(ReconnectPolicy.standard.baseDelay(beforeAttempt: Int.max) == .seconds(5), "no overflow")
        #expect(ReconnectPolicy(multiplier: .nan).baseDelay(beforeAttempt: 3) == .milliseconds(50))
    }

    @Test func theStoreWaitsLongerAfterEachFailedAttempt() async throws {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(80), jitter: 0.5)
        for (sample, expected) in [(1.0, [15, 30, 60, 120, 120, 120]), (-1.0, [5, 10, 20, 40, 40, 40])] {
            let waits = RecordedWaits { sample }
            let broker = try FakeBroker(answer: FakeBroker.echo)
            let store = try await broker.connectApp(reconnect: policy, timing: waits.timing)
            broker.goDown()
            #expect(await waitUntil { waits.recorded.count >= 6 })
            store.close()
            #expect(Array(waits.recorded.prefix(6)) == Self.ms(expected))
        }
    }

    @Test func randomWaitsGrowWithinTheJitterBoundsAndStartOverAfterAReconnection() async throws {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(80), jitter: 0.5)
        let waits = RecordedWaits()
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: policy, timing: waits.timing)
        defer { store.close() }
        broker.goDown()
        try #require(await waitUntil { waits.recorded.count >= 8 })
        try broker.startListening()
        #expect(await waitUntil { store.isConnected })
        let firstRun = waits.recorded
        for (attempt, delay) in firstRun.enumerated() {
            #expect(policy.delayRange(beforeAttempt: attempt).contains(delay), "attempt \(attempt) waited \(delay)")
        }
        // Attempt n+2 always waits longer than attempt n until the cap (the bands do not overlap).
        #expect(firstRun[2] > firstRun[0] && firstRun[3] > firstRun[1])

        broker.closeConnections()
        try #require(await waitUntil { waits.recorded.count > firstRun.count })
        let restart = waits.recorded[firstRun.count]
        #expect(policy.delayRange(beforeAttempt: 0).contains(restart), "a new drop starts from the first wait")
        #expect(await waitUntil { store.isConnected })
    }
}
