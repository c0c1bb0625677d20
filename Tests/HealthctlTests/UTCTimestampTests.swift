@testable import healthctl
import Testing

@Suite struct UTCTimestampTests {
    static let second: Int64 = 1_000_000
    static let day: Int64 = 86_400 * second

    @Test func theEpoch() {
        #expect(UTCTimestamp.string(micros: 0) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.string(micros: 0, fractional: true) == "1970-01-01T00:00:00.000000Z")
        #expect(UTCTimestamp.string(micros: 1, fractional: true) == "1970-01-01T00:00:00.000001Z")
    }

    @Test func negativeInstantsRoundDownwards() {
        #expect(UTCTimestamp.string(micros: -1) == "1969-12-31T23:59:59Z")
        #expect(UTCTimestamp.string(micros: -1, fractional: true) == "1969-12-31T23:59:59.999999Z")
        #expect(UTCTimestamp.string(micros: -Self.day) == "1969-12-31T00:00:00Z")
    }

    @Test func leapDays() {
        #expect(UTCTimestamp.string(micros: 951_782_400 * Self.second) == "2000-02-29T00:00:00Z")
        #expect(UTCTimestamp.string(micros: 1_709_210_096 * Self.second) == "2024-02-29T12:34:56Z")
        #expect(UTCTimestamp.string(micros: 1_709_251_200 * Self.second) == "2024-03-01T00:00:00Z")
        // 1900 is not a leap year: 28 February is followed by 1 March.
        #expect(UTCTimestamp.string(micros: -25_509 * Self.day) == "1900-02-28T00:00:00Z")
        #expect(UTCTimestamp.string(micros: -25_508 * Self.day) == "1900-03-01T00:00:00Z")
    }

    @Test func knownInstants() {
        #expect(UTCTimestamp.string(micros: 1_748_772_000 * Self.second + 123_456, fractional: true) == "2025-06-01T10:00:00.123456Z")
        #expect(UTCTimestamp.string(micros: 1_767_225_599 * Self.second) == "2025-12-31T23:59:59Z")
    }

    @Test func parsesCalendarDatesAsMidnightUTC() {
        #expect(UTCTimestamp.micros(fromDate: "1970-01-01") == 0)
        #expect(UTCTimestamp.micros(fromDate: "2026-01-01") == 20_454 * Self.day)
        #expect(UTCTimestamp.micros(fromDate: "2024-02-29") == 19_782 * Self.day)
        #expect(UTCTimestamp.micros(fromDate: "1969-12-31") == -Self.day)
        #expect(UTCTimestamp.micros(fromDate: "1900-03-01") == -25_508 * Self.day)
    }

    @Test func refusesMalformedOrImpossibleDates() {
        for text in ["2023-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-01-01", "2026-1-01",
                     "2026-01-1", "2026/01/01", "2026-01-01T00:00:00Z", "", "abcd-ef-gh", "+202-01-01"] {
            #expect(UTCTimestamp.micros(fromDate: text) == nil, "\(text)")
        }
    }

    @Test func datesRoundTrip() {
        // Years 0000 to 9999: the four-digit years a date can be typed with.
        for days in stride(from: Int64(-719_528), through: 2_932_896, by: 997) {
            let text = UTCTimestamp.dateString(micros: days * Self.day)
            #expect(UTCTimestamp.micros(fromDate: text) == days * Self.day, "\(text)")
        }
    }

    @Test func dateStringIsTheCalendarDay() {
        #expect(UTCTimestamp.dateString(micros: 1_709_210_096 * Self.second) == "2024-02-29")
        #expect(UTCTimestamp.dateString(micros: -1) == "1969-12-31")
    }
}
