import Foundation
@testable import HealthBrokerClient
import Testing

@Suite("Date and Duration ↔ microseconds")
struct MicrosecondsTests {
    /// Instants from 1950 to 2060, the range dates of samples and grants live in.
    static let instants: [Int64] = [
        0, 1, -1, 999_999, 1_000_000, 1_000_001,
        -631_152_000_000_000,          // 1950-01-01
        978_307_200_000_000,           // 2001-01-01, Foundation's reference date
        978_307_200_000_001,
        1_700_000_000_123_456,         // 2023-11-14
        1_767_225_599_999_999,         // 2025-12-31 23:59:59.999999
        2_840_140_799_999_999,         // 2059-12-31 23:59:59.999999
    ]

    @Test(arguments: instants)
    func microsecondsSurviveADateRoundTrip(micros: Int64) {
        #expect(Date(microsecondsSince1970: micros).microsecondsSince1970 == micros)
    }

    @Test func microsecondsMeanTheUnixEpoch() {
        #expect(Date(microsecondsSince1970: 0) == Date(timeIntervalSince1970: 0))
        #expect(Date(microsecondsSince1970: 1_500_000).timeIntervalSince1970 == 1.5)
        #expect(Date(microsecondsSince1970: -2_000_000).timeIntervalSince1970 == -2)
        #expect(Date(timeIntervalSince1970: 86_400).microsecondsSince1970 == 86_400_000_000)
    }

    @Test func aDateRoundsToTheNearestMicrosecond() {
        #expect(Date(timeIntervalSince1970: 1.000_000_4).microsecondsSince1970 == 1_000_000)
        #expect(Date(timeIntervalSince1970: 1.000_000_6).microsecondsSince1970 == 1_000_001)
        #expect(Date(timeIntervalSince1970: -1.000_000_6).microsecondsSince1970 == -1_000_001)
    }

    @Test func farDatesSaturate() {
        #expect(Date(timeIntervalSince1970: 1e13).microsecondsSince1970 == .max)
        #expect(Date(timeIntervalSince1970: -1e13).microsecondsSince1970 == .min)
        #expect(Date.distantFuture.microsecondsSince1970 > 0)
        #expect(Date.distantPast.microsecondsSince1970 < 0)
    }

    @Test func ordersArePreserved() {
        let earlier = Date(microsecondsSince1970: 1_700_000_000_000_000)
        let later = Date(microsecondsSince1970: 1_700_000_000_000_001)
        #expect(earlier < later)
    }

    @Test func durationsRoundUpToWholeMicroseconds() {
        #expect(Duration.zero.wholeMicrosecondsRoundedUp == 0)
        #expect(Duration.nanoseconds(1).wholeMicrosecondsRoundedUp == 1)
        #expect(Duration.nanoseconds(1_000).wholeMicrosecondsRoundedUp == 1)
        #expect(Duration.nanoseconds(1_001).wholeMicrosecondsRoundedUp == 2)
        #expect(Duration.milliseconds(250).wholeMicrosecondsRoundedUp == 250_000)
        #expect(Duration.seconds(90).wholeMicrosecondsRoundedUp == 90_000_000)
        #expect(Duration.seconds(Int64.max).wholeMicrosecondsRoundedUp == .max)
    }
}
