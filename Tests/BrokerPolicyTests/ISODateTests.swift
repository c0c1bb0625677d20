@testable import BrokerPolicy
import Testing

@Suite("ISODate")
struct ISODateTests {
    @Test func parsesDatesAsMidnightUTC() {
        #expect(ISODate.parse("1970-01-01") == 0)
        #expect(ISODate.parse("2020-01-01") == jan2020)
        #expect(ISODate.parse("2026-01-01") == jan2026)
        #expect(ISODate.parse("2024-02-29") == 1_709_164_800_000_000)
        #expect(ISODate.parse("1969-12-31") == -day)
    }

    @Test func parsesDateTimesWithZ() {
        #expect(ISODate.parse("2026-01-01T00:00:00Z") == jan2026)
        #expect(ISODate.parse("2026-01-01T12:34:56Z") == jan2026 + (12 * 3600 + 34 * 60 + 56) * 1_000_000)
        #expect(ISODate.parse("2026-01-01T00:00:00.5Z") == jan2026 + 500_000)
        #expect(ISODate.parse("2026-01-01T00:00:00.123456Z") == jan2026 + 123_456)
        #expect(ISODate.parse("2026-01-01T00:00:00.123456789Z") == jan2026 + 123_456)
    }

    @Test(arguments: [
        "", "2026", "2026-1-01", "2026-13-01", "2026-00-10", "2026-02-29", "2025-04-31", "2026-01-32",
        "2026-01-01T", "2026-01-01T00:00:00", "2026-01-01T00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00+01:00", "2026-01-01 00:00:00Z",
        "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567890Z", "2026-01-01t00:00:00z", "２０２６-01-01",
        "2026-01-01x", "+2026-01-01",
    ])
    func rejectsMalformedText(text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test func acceptsCenturyLeapYearsOnly() {
        #expect(ISODate.parse("2000-02-29") != nil)
        #expect(ISODate.parse("1900-02-29") == nil)
    }

    @Test func formatsInstants() {
        #expect(ISODate.format(0) == "1970-01-01T00:00:00Z")
        #expect(ISODate.format(jan2026) == "2026-01-01T00:00:00Z")
        #expect(ISODate.format(jan2026 + 1) == "2026-01-01T00:00:00.000001Z")
        #expect(ISODate.format(-1) == "1969-12-31T23:59:59.999999Z")
        #expect(ISODate.format(-day) == "1969-12-31T00:00:00Z")
    }

    @Test func formatAndParseRoundTrip() {
        var micros: Int64 = -3_000_000_000_000_000
        while micros < 4_000_000_000_000_000 {
            #expect(ISODate.parse(ISODate.format(micros)) == micros)
            micros += 12_345_678_901_234
        }
    }

    @Test func civilDayConversionRoundTripsAcrossCenturies() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, dayOfMonth) = ISODate.civilFromDays(days)
            #expect(ISODate.daysFromCivil(year: Int(year), month: month, day: dayOfMonth) == days)
        }
    }
}
