@testable import healthctl
import Testing

@Suite struct UptimeFormatterTests {
    static func seconds(_ value: Int64) -> Int64 { value * 1_000_000 }

    @Test func leadingZeroUnitsAreLeftOut() {
        #expect(UptimeFormatter.string(micros: 0) == "0s")
        #expect(UptimeFormatter.string(micros: Self.seconds(42)) == "42s")
        #expect(UptimeFormatter.string(micros: Self.seconds(720)) == "12m 0s")
        #expect(UptimeFormatter.string(micros: Self.seconds(3_600)) == "1h 0m 0s")
        #expect(UptimeFormatter.string(micros: Self.seconds(86_400)) == "1d 0h 0m 0s")
    }

    @Test func everyUnit() {
        let span = Self.seconds(((3 * 24 + 4) * 60 + 5) * 60 + 6)
        #expect(UptimeFormatter.string(micros: span) == "3d 4h 5m 6s")
    }

    @Test func fractionsOfASecondAreDropped() {
        #expect(UptimeFormatter.string(micros: 1_999_999) == "1s")
        #expect(UptimeFormatter.string(micros: 999_999) == "0s")
    }

    @Test func negativeSpansReadZero() {
        #expect(UptimeFormatter.string(micros: -5_000_000) == "0s")
    }
}
