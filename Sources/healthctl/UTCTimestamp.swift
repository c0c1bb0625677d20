import BrokerPolicy
import HealthBrokerClient

/// ISO-8601 UTC text for instants in microseconds since the Unix epoch, without Foundation or locales.
enum UTCTimestamp {
    private static let microsPerSecond: Int64 = 1_000_000
    private static let secondsPerDay: Int64 = 86_400

    /// `2025-06-01T10:00:00Z`, or `2025-06-01T10:00:00.123456Z` with `fractional`.
    static func string(micros: Int64, fractional: Bool = false) -> String {
        let (seconds, fraction) = floorDivide(micros, microsPerSecond)
        let (days, secondOfDay) = floorDivide(seconds, secondsPerDay)
        let (year, month, day) = ISODate.civilFromDays(days)
        var text = "\(padded(year, 4))-\(padded(Int64(month), 2))-\(padded(Int64(day), 2))"
        text += "T\(padded(secondOfDay / 3_600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
        if fractional { text += "." + padded(fraction, 6) }
        return text + "Z"
    }

    /// Midnight UTC of a `YYYY-MM-DD` date, in microseconds since the epoch; nil when malformed or not a real date.
    static func micros(fromDate text: String) -> Int64? {
        text.utf8.count == 10 ? ISODate.parse(text) : nil
    }

    /// `2025-06-01`: the UTC calendar date of an instant.
    static func dateString(micros: Int64) -> String {
        String(string(micros: micros).prefix(while: { $0 != "T" }))
    }

    /// Division rounding towards −∞, with a remainder in `0..<divisor`.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
