@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("SampleValidator.validated: one sample, as validate checks each of a batch")
struct SampleValidatorSingleTests {
    @Test func normalisesLikeTheBatchCheck() throws {
        var sample = testSample(1, .distanceWalkingRunning, .quantity(Quantity(2, "mi")))
        sample.sourceAppID = "com.example.source"
        sample.createdMicros = 7
        let single = try SampleValidator.validated(sample, earliestPermitted: jan2020)
        #expect(single == (try SampleValidator.validate([sample], earliestPermitted: jan2020))[0])
        guard case .quantity(let distance) = single.value else { Issue.record("not a quantity"); return }
        #expect(distance.unit == "m" && abs(distance.value - 3_218.688) < 1e-9)
        #expect(single.sourceAppID.isEmpty && single.createdMicros == 0)
    }

    @Test func refusesWithTheBatchCheckMessageWithoutAnIndex() {
        let wrongUnit = testSample(1, .stepCount, .quantity(Quantity(5, "kg")))
        let single = invalidArgumentMessage { _ = try SampleValidator.validated(wrongUnit, earliestPermitted: jan2020) }
        let batch = invalidArgumentMessage { _ = try SampleValidator.validate([wrongUnit], earliestPermitted: jan2020) }
        #expect("samples[0]: " + single == batch)
        #expect(single.contains("kg"))
    }
}
