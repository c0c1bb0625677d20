// Only what an app imports: the model types below must come through HealthBrokerClient's one
// re-export (BrokerModel), so this file stops compiling if the re-export is lost.
// scripts/check-public-api.sh checks what must stay hidden (policy, process support, pointers).
import Foundation
import HealthBrokerClient
import Testing

@Suite("Public surface: the model through HealthBrokerClient, time as Date")
struct PublicSurfaceTests {
    /// 2025-03-01T12:34:56.789012Z: whole microseconds, so the round trip is exact.
    static let instant = Date(timeIntervalSince1970: 1_740_832_496.789012)

    @Test func samplesTakeAndGiveDates() {
        let end = Self.instant.addingTimeInterval(90)
        let sample = Sample(type: .stepCount, quantity: Quantity(42, "count"), start: Self.instant, end: end)
        #expect(sample.type == ObjectType.stepCount)
        #expect(abs(sample.startDate.timeIntervalSince(Self.instant)) < 1e-6)
        #expect(abs(sample.endDate.timeIntervalSince(end)) < 1e-6)
        #expect(TypeCatalogue.descriptor(for: sample.type)?.kind == .quantity)
    }

    @Test func predicatesAndStatisticsQueriesTakeDates() throws {
        let predicate = SamplePredicate(start: Self.instant, end: nil, options: .strictStartDate)
        let start = try #require(predicate.startDate)
        #expect(abs(start.timeIntervalSince(Self.instant)) < 1e-6)
        #expect(predicate.endDate == nil)
        #expect(predicate == HealthStore.predicateForSamples(withStart: Self.instant, end: nil, options: .strictStartDate))

        var query = StatisticsQuery(type: .stepCount, predicate: predicate, options: .sum, interval: .day, anchor: Self.instant)
        #expect(abs(query.anchor.timeIntervalSince(Self.instant)) < 1e-6)
        query.anchor = Date(timeIntervalSince1970: 0)
        #expect(query == StatisticsQuery(type: .stepCount, predicate: predicate, options: .sum, interval: .day))
    }

    @Test func workoutsTakeADuration() {
        var details = WorkoutDetails(activityType: "running", duration: .seconds(1_920))
        #expect(details.duration == .seconds(1_920))
        details.duration = .milliseconds(1_500)
        #expect(details.duration == .microseconds(1_500_000))
    }

    @Test func limitedReadsTakeADate() throws {
        let decision = ReadDecision.limited(from: Self.instant)
        let from = try #require(decision.limitedFromDate)
        #expect(abs(from.timeIntervalSince(Self.instant)) < 1e-6)
        #expect(ReadDecision.full.limitedFromDate == nil)
        #expect(TypeDecision(type: .heartRate, read: decision).read == decision)
    }

    @Test func brokerErrorsAreTheClientsErrors() {
        let error: HealthBrokerError = .invalidArgument("bad")
        #expect(error.code == StatusCode.invalidArgument)
        #expect(error.message == "bad")
    }

    @Test func defaultSocketPathsEndInTheirSocketNames() {
        #expect(HealthStore.defaultSocketPath.hasSuffix("/app.sock"))
        #expect(BrokerAdmin.defaultSocketPath.hasSuffix("/admin.sock"))
    }
}
