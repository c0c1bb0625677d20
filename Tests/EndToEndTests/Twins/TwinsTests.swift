import BrokerWire
import Foundation
@testable import HealthBrokerClient
import Testing

/// A read-denied app cannot tell its store from one holding only its own samples: store A (X read
/// denied, three other apps with thousands of samples) and store B (X alone, full read access) answer
/// X's whole script of app-socket calls with the same bytes, once call ids, clocks and anchors are
/// normalised.
@Suite("Twins", .serialized)
struct TwinsTests {
    /// Samples per other app in the whole-script comparison (three apps: about 5,000 in all).
    static let otherCount = 1_700

    @Test func aReadDeniedAppCannotTellItsStoreFromOneHoldingOnlyItsOwnSamples() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        try await pair.run(TwinScript.run)
        #expect(pair.a.transcript.entries.count == pair.b.transcript.entries.count)
        pair.expectIndistinguishable()
    }

    /// Everything but the leak items already holds: reads, statistics, observe, authorization, errors.
    @Test func everythingButTheLeakItemsIsIndistinguishable() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        try await pair.run(TwinScript.runWithoutLeakItems)
        #expect(pair.a.transcript.entries.count == pair.b.transcript.entries.count)
        pair.expectIndistinguishable()
    }

    /// The comparison is not vacuous: when X may read the other apps' samples in A, it finds a difference.
    @Test func theComparisonFailsWhenXMayReadTheOtherApps() async throws {
        let pair = try await TwinPair.make(aKind: .fullWithOthers, otherCount: 300)
        try await pair.run(TwinScript.run)
        let difference = pair.firstDifference
        #expect(difference != nil)
        // The first difference is a read that shows other apps' samples, printed readably.
        #expect(difference?.contains("com.example.o") == true, "\(difference ?? "no difference")")
    }
}
