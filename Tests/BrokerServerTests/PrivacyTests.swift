@testable import BrokerServer
import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerWire
import Foundation
import Testing

/// Reads are clamped by the app's grants, whatever the query asks.
@Suite("Broker read scopes, in process")
struct PrivacyTests {
    /// Every app may share step counts; `reader` may not read them, everyone else may.
    static let policy = #"""
        { "rules": [
          { "app": "com.example.reader", "types": ["HKQuantityTypeIdentifierStepCount"], "share": "allow", "read": "deny" },
          { "app": "*", "types": ["HKQuantityTypeIdentifierStepCount"], "share": "allow", "read": "full" } ] }
        """#

    func steps(_ value: Double, minutesAgo: Int64) -> Sample {
        let end = Microseconds.now() - minutesAgo * 60 * Microseconds.perSecond
        return Sample(uuid: UUID().uuidString.lowercased(), type: .stepCount, startMicros: end - 60 * Microseconds.perSecond, endMicros: end, value: .quantity(Quantity(value, "count")))
    }

    /// Asks for step counts (decided by the policy) and saves `samples` as the app on `connection`.
    func authorizeAndSave(_ samples: [Sample], on connection: InProcessConnection, harness: InProcessBroker) throws {
        let asked = try harness.call(.requestAuthorization(share: [.stepCount], read: [.stepCount]), id: 10, on: connection)
        #expect(asked.count == 1 && asked.first?.status == nil, "RequestAuthorization: \(asked)")
        let saved = try harness.call(.save(samples), id: 11, on: connection)
        guard case .save(let save)? = saved.first?.response else {
            Issue.record("Save: \(saved)")
            return
        }
        #expect(save.saved == UInt32(samples.count))
    }

    /// The values of the samples a query streamed, and its final status.
    func query(on connection: InProcessConnection, id: UInt64, harness: InProcessBroker) throws -> (values: [Double], sources: Set<String>, status: StatusCode?) {
        let frames = try harness.call(.query(SampleQuery(type: .stepCount)), id: id, on: connection)
        var values: [Double] = []
        var sources: Set<String> = []
        for frame in frames {
            guard case .samples(let samples)? = frame.item else { continue }
            for sample in samples {
                if case .quantity(let quantity) = sample.value { values.append(quantity.value) }
                sources.insert(sample.sourceAppID)
            }
        }
        return (values.sorted(), sources, frames.last?.status?.code)
    }

    @Test func aReadDeniedAppQueriesOnlyItsOwnSamples() throws {
        let harness = try InProcessBroker { configuration in
            configuration.consentPolicy = try ConsentPolicy(jsonData: Array(Self.policy.utf8), now: Microseconds.now())
        }
        defer { harness.shutDown() }
        let writer = try harness.helloedApp("com.example.writer")
        let reader = try harness.helloedApp("com.example.reader")
        try authorizeAndSave([steps(100, minutesAgo: 30), steps(200, minutesAgo: 20)], on: writer, harness: harness)
        try authorizeAndSave([steps(7, minutesAgo: 10)], on: reader, harness: harness)

        let denied = try query(on: reader, id: 20, harness: harness)
        #expect(denied.values == [7])
        #expect(denied.sources == ["com.example.reader"])
        #expect(denied.status == .ok)

        let full = try query(on: writer, id: 20, harness: harness)
        #expect(full.values == [7, 100, 200])
        #expect(full.sources == ["com.example.reader", "com.example.writer"])
        #expect(full.status == .ok)
    }
}
