/// ISO-8601 UTC text for instants in microseconds since the Unix epoch, without Foundation or locales.
enum UTCTimestamp {
    private static let microsPerSecond: Int64 = 1_000_000
    private static let secondsPerDay: Int64 = 86_400

    /// `2025-06-01T10:00:00Z`, or `2025-06-01T10:00:00.123456Z` with `fractional`.
    static func string(micros: Int64, fractional: Bool = false) -> String {
        let (seconds, fraction) = floorDivide(micros, microsPerSecond)
        let (days, secondOfDay) = floorDivide(seconds, secondsPerDay)
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
        text += "T\(padded(secondOfDay / 3_600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
        if fractional { text += "." + padded(fraction, 6) }
        return text + "Z"
    }

    /// The proleptic Gregorian year, month (1–12) and day (1–31) of a day count from 1970-01-01.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // Count from 0000-03-01 in 400-year eras, so that leap days fall at the end of each year.
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Midnight UTC of a `YYYY-MM-DD` date, in microseconds since the epoch; nil when malformed or not a real date.
    static func micros(fromDate text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
              (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return daysSince1970(year: year, month: month, day: day) * secondsPerDay * microsPerSecond
    }

    /// The day count from 1970-01-01 of a proleptic Gregorian date (the inverse of `civilDate`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400).quotient
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 29 for February of a leap year, else the month's usual length.
    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
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
