/// The dates of an Apple Health export: `2019-05-14 18:52:09 -0400` (local time and its UTC offset).
enum AppleHealthDate {
    /// Microseconds since the epoch (UTC) of `text`; nil when it is not `YYYY-MM-DD HH:MM:SS ±HHMM`.
    ///
    /// Parsed by hand (no DateFormatter): an export holds millions of them.
    static func micros(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { micros(bytes: $0) }
    }

    /// As `micros(_:)`, over the text's UTF-8 bytes.
    static func micros(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x20
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(bytes[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              let offsetHours = number(21, 2), let offsetMinutes = number(23, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let sign: Int
        switch bytes[20] {
        case 0x2B: sign = 1
        case 0x2D: sign = -1
        default: return nil
        }
        let local = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        let utc = local - sign * (offsetHours * 3_600 + offsetMinutes * 60)
        return Int64(utc) * 1_000_000
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 28 to 31.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
