import Foundation
import Testing
@testable import HealthBrokerClient

/// Date and Duration ↔ wire microseconds, and the deadlines and poll timeouts built on them.
@Suite("Time conversions")
struct TimeConversionTests {
    /// Instants from 1950 to 2060, the range dates of samples and grants live in.
    static let instants: [Int64] = [
        0, 1, -1, 999_999, 1_000_000, 1_000_001, -1_234_567,
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
        #expect(Date(microsecondsSince1970: 1_500_000) == Date(timeIntervalSince1970: 1.5))
        #expect(Date(microsecondsSince1970: 1_500_000).timeIntervalSince1970 == 1.5)
        #expect(Date(microsecondsSince1970: -2_000_000) == Date(timeIntervalSince1970: -2))
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
        #expect(Duration.nanoseconds(1_000_001).wholeMicrosecondsRoundedUp == 1_001)
        #expect(Duration.microseconds(7).wholeMicrosecondsRoundedUp == 7)
        #expect(Duration.milliseconds(250).wholeMicrosecondsRoundedUp == 250_000)
        #expect(Duration.milliseconds(1500).wholeMicrosecondsRoundedUp == 1_500_000)
        #expect(Duration.milliseconds(-3).wholeMicrosecondsRoundedUp == -3_000)
        #expect(Duration.seconds(90).wholeMicrosecondsRoundedUp == 90_000_000)
        #expect(Duration.seconds(Int64.max).wholeMicrosecondsRoundedUp == .max)
        #expect(Duration.seconds(Int64.min).wholeMicrosecondsRoundedUp == .min)
    }

    @Test func callDeadlineAddsTheGracePeriod() throws {
        let none = try ConnectionCore.deadline(for: nil, now: 1_000)
        #expect(none.wireMicros == 0 && none.deadline == nil)
        let some = try ConnectionCore.deadline(for: .milliseconds(20), now: 1_000)
        #expect(some.wireMicros == 20_000)
        #expect(some.deadline == 1_000 + 20_000 + ConnectionCore.deadlineGraceMicros)
        #expect(try ConnectionCore.deadline(for: .seconds(Int64.max), now: 1_000).deadline == .max)
    }

    @Test func nonPositiveTimeoutFailsAtOnce() {
        #expect(throws: BrokerError.self) { try ConnectionCore.deadline(for: .zero, now: 0) }
        do {
            _ = try ConnectionCore.deadline(for: .seconds(-1), now: 0)
            Issue.record("expected DEADLINE_EXCEEDED")
        } catch {
            #expect(error.code == .deadlineExceeded)
        }
    }

    @Test func pollTimeoutRoundsUpToMilliseconds() {
        #expect(ConnectionCore.pollTimeout(until: nil, now: 5) == -1)
        #expect(ConnectionCore.pollTimeout(until: 5, now: 10) == 0)
        #expect(ConnectionCore.pollTimeout(until: 10, now: 10) == 0)
        #expect(ConnectionCore.pollTimeout(until: 11, now: 10) == 1)
        #expect(ConnectionCore.pollTimeout(until: 2_010, now: 10) == 2)
        #expect(ConnectionCore.pollTimeout(until: .max, now: 0) == .max)
    }
}
