import BrokerSupport

/// The span `healthctl demo-data` fills: `days` days ending at `end` (exclusive).
struct DemoDataRange: Equatable {
    /// The first instant (µs).
    var start: Int64
    /// The end (µs, exclusive for starts; a sample may end exactly here).
    var end: Int64

    /// `days` days ending at `end`.
    init(end: Int64, days: Int) {
        self.end = end
        start = end - Int64(days) * DemoDataGenerator.day
    }

    /// The current time, truncated to the minute.
    static func now() -> Int64 {
        let now = Microseconds.now()
        return now - ((now % DemoDataGenerator.minute) + DemoDataGenerator.minute) % DemoDataGenerator.minute
    }

    /// The days whose samples can fall in the range.
    var days: ClosedRange<Int64> {
        DemoDataGenerator.days(from: start, to: end)
    }

    /// `90 days from 2025-03-03T12:00:00Z to 2025-06-01T12:00:00Z`.
    var description: String {
        let days = (end - start) / DemoDataGenerator.day
        return "\(days) day\(days == 1 ? "" : "s") from \(UTCTimestamp.string(micros: start)) to \(UTCTimestamp.string(micros: end))"
    }
}
