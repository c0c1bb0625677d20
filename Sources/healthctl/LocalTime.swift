#if canImport(Glibc)
import Glibc
#endif

/// Dates in the person's local time zone (the `TZ` environment variable, else the system's), for the consent agent.
enum LocalTime {
    /// Local midnight of a `YYYY-MM-DD` date, in microseconds since the epoch; nil when malformed or not a real date.
    static func midnight(ofDate text: String) -> Int64? {
        // UTCTimestamp checks the date is real (no 2026-02-30) before mktime would normalise it.
        guard UTCTimestamp.micros(fromDate: text) != nil else { return nil }
        let parts = text.split(separator: "-").compactMap { Int32($0) }
        guard parts.count == 3 else { return nil }
        var fields = tm()
        fields.tm_year = parts[0] - 1900
        fields.tm_mon = parts[1] - 1
        fields.tm_mday = parts[2]
        fields.tm_isdst = -1   // let the zone's rules say whether summer time applies that day
        let seconds = mktime(&fields)
        return seconds == -1 && parts[0] != 1969 ? nil : Int64(seconds) * 1_000_000
    }

    /// `2026-06-15 14:03 CEST`: an instant in local time, to the minute.
    static func string(micros: Int64) -> String {
        format(micros: micros, "%Y-%m-%d %H:%M %Z")
    }

    /// `14:03 CEST`: the time of day of an instant, in local time.
    static func clockString(micros: Int64) -> String {
        format(micros: micros, "%H:%M %Z")
    }

    /// Whether two instants fall on the same local day.
    static func sameDay(_ first: Int64, _ second: Int64) -> Bool {
        format(micros: first, "%Y-%m-%d") == format(micros: second, "%Y-%m-%d")
    }

    /// `2026-06-15 14:03:07 CEST`: an instant in local time, to the second.
    static func secondString(micros: Int64) -> String {
        format(micros: micros, "%Y-%m-%d %H:%M:%S %Z")
    }

    /// `2026-01-31` for a local midnight (what the person typed), else `string(micros:)`.
    static func dateOrInstant(micros: Int64) -> String {
        let text = format(micros: micros, "%Y-%m-%d %H:%M:%S")
        return text.hasSuffix(" 00:00:00") ? String(text.prefix(10)) : string(micros: micros)
    }

    /// The local time zone's abbreviation now (`CET`, `UTC`).
    static var zoneName: String {
        var now = time_t(0)
        time(&now)
        return format(micros: Int64(now) * 1_000_000, "%Z")
    }

    private static func format(micros: Int64, _ pattern: String) -> String {
        var seconds = time_t(micros / 1_000_000)
        var fields = tm()
        localtime_r(&seconds, &fields)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, pattern, &fields)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
