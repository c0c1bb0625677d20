import Foundation

/// Conversions between `Date` and the wire's microseconds since the Unix epoch.
extension Date {
    /// The instant `microseconds` after 1970-01-01 00:00:00 UTC.
    package init(microsecondsSince1970 microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1e6)
    }

    /// This instant in whole microseconds since the Unix epoch, rounded to the nearest (saturating).
    package var microsecondsSince1970: Int64 {
        let value = (timeIntervalSince1970 * 1e6).rounded()
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value)
    }
}
