/// ISO-8601 UTC dates and instants ↔ µs since the epoch, by calendar arithmetic (no Foundation).
public enum ISODate {
    static let microsPerDay: Int64 = 86_400_000_000

    /// Parses "YYYY-MM-DD" (midnight UTC) or "YYYY-MM-DDTHH:MM:SS[.fraction]Z"; nil when malformed or out of range.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        if bytes.count == 10 { return days * microsPerDay }

        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), bytes[bytes.count - 1] == UInt8(ascii: "Z"),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var fractionMicros: Int64 = 0
        if bytes.count > 20 {
            // ".d…dZ": 1 to 9 digits; digits past the sixth are truncated.
            let digits = bytes[20..<(bytes.count - 1)]
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits.count),
                  digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            for (index, digit) in digits.prefix(6).enumerated() {
                var place: Int64 = 1
                for _ in 0..<(5 - index) { place *= 10 }
                fractionMicros += Int64(digit - UInt8(ascii: "0")) * place
            }
        } else if bytes.count != 20 {
            return nil
        }
        let seconds = Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second)
        return days * microsPerDay + seconds * 1_000_000 + fractionMicros
    }

    /// "YYYY-MM-DDTHH:MM:SSZ", with ".ffffff" before the Z when the instant is not a whole second.
    public static func format(_ micros: Int64) -> String {
        let (days, inDay) = floorDivide(micros, microsPerDay)
        let (year, month, day) = civilFromDays(days)
        let seconds = inDay / 1_000_000
        let fraction = inDay % 1_000_000
        var text = "\(pad(year, 4))-\(pad(Int64(month), 2))-\(pad(Int64(day), 2))"
        text += "T\(pad(seconds / 3_600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if fraction != 0 { text += ".\(pad(fraction, 6))" }
        return text + "Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    public static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The unsigned decimal number in `count` ASCII digits at `start`; nil if any is not a digit.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value < 0 ? -value : value)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
