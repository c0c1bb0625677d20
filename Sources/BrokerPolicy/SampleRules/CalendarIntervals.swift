import BrokerModel
internal import Foundation

/// Calendar intervals (hour, day, week, month) in a time zone, aligned to an anchor instant.
///
/// Boundary n is the anchor plus n intervals, each computed from the anchor (not step by step), as
/// `HKStatisticsCollectionQuery` does: days keep the anchor's wall-clock time (23 or 25 hours on DST
/// days), weeks also its weekday, months its day of month (clamped to shorter months).
struct CalendarIntervals {
    private static let microsPerSecond: Int64 = 1_000_000
    private static let microsPerHour: Int64 = 3_600_000_000

    let interval: StatisticsInterval
    let anchorMicros: Int64
    private let calendar: Calendar
    /// The anchor's whole seconds (Calendar works on those) and its sub-second remainder (µs, 0..<1 000 000).
    private let anchorSeconds: Int64
    private let anchorFraction: Int64

    /// Intervals of kind `interval` (not .none) aligned to `anchorMicros` in `timeZone`.
    init(interval: StatisticsInterval, anchorMicros: Int64, timeZone: TimeZone) {
        self.interval = interval
        self.anchorMicros = anchorMicros
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        let remainder = anchorMicros % Self.microsPerSecond
        anchorFraction = remainder < 0 ? remainder + Self.microsPerSecond : remainder
        anchorSeconds = (anchorMicros - anchorFraction) / Self.microsPerSecond
    }

    /// The zone for an IANA name ("" = UTC); INVALID_ARGUMENT for anything else, offsets such as "GMT+5" included.
    static func timeZone(named name: String) throws(BrokerError) -> TimeZone {
        if name.isEmpty { return TimeZone(secondsFromGMT: 0) ?? .current }
        let offsetStyle = ["GMT+", "GMT-", "UTC+", "UTC-"].contains { name.hasPrefix($0) }
        guard !offsetStyle, let zone = TimeZone(identifier: name) else {
            throw .invalidArgument("unknown time zone \"\(MessageText.clipped(name))\" (expected an IANA name such as Europe/Berlin, or empty for UTC)")
        }
        return zone
    }

    /// Bounds on the number of buckets over [start, end), from the shortest and longest interval lengths.
    func countEstimate(start: Int64, end: Int64) -> (lower: Int, upper: Int) {
        let span = (Double(end) - Double(start)) / Double(Self.microsPerSecond)
        let (shortest, longest) = lengthRange
        let lower = (span / longest).rounded(.down)
        let upper = (span / shortest).rounded(.up) + 1
        return (Self.clampedInt(lower), Self.clampedInt(upper))
    }

    /// [start, b1, …, end]: the boundaries strictly inside (start, end) between the clipped ends; INVALID_ARGUMENT past `limit` buckets.
    func boundaries(start: Int64, end: Int64, limit: Int) throws(BrokerError) -> [Int64] {
        var index = Int64(((Double(start) - Double(anchorMicros)) / Double(Self.microsPerSecond) / nominalLength).rounded(.down)
            .clamped(to: -1e15...1e15))
        while try boundary(index) > start { index -= 1 }
        while try boundary(index + 1) <= start { index += 1 }
        var result: [Int64] = [start]
        while true {
            index += 1
            let next = try boundary(index)
            if next >= end { break }
            result.append(next)
            if result.count > limit { throw StatisticsRules.tooManyBuckets(interval) }
        }
        result.append(end)
        return result
    }

    /// The anchor plus `index` intervals, in µs.
    func boundary(_ index: Int64) throws(BrokerError) -> Int64 {
        switch interval {
        case .none, .hour:
            let (offset, overflow) = index.multipliedReportingOverflow(by: Self.microsPerHour)
            let (result, sumOverflow) = anchorMicros.addingReportingOverflow(offset)
            guard !overflow, !sumOverflow else { throw Self.outOfRange }
            return result
        case .day: return try adding(.day, index)
        case .week:
            let (days, overflow) = index.multipliedReportingOverflow(by: 7)
            guard !overflow else { throw Self.outOfRange }
            return try adding(.day, days)
        case .month: return try adding(.month, index)
        }
    }

    /// The anchor plus `value` calendar `component`s in the zone, keeping the anchor's sub-second part.
    private func adding(_ component: Calendar.Component, _ value: Int64) throws(BrokerError) -> Int64 {
        let anchorDate = Date(timeIntervalSince1970: TimeInterval(anchorSeconds))
        guard let count = Int(exactly: value), abs(count) <= 100_000_000,
              let date = calendar.date(byAdding: component, value: count, to: anchorDate)
        else { throw Self.outOfRange }
        let seconds = date.timeIntervalSince1970.rounded()
        guard seconds.isFinite, abs(seconds) < 9e12 else { throw Self.outOfRange }
        return Int64(seconds) * Self.microsPerSecond + anchorFraction
    }

    /// The interval's usual length in seconds (months: the Gregorian average), for a first guess.
    private var nominalLength: Double {
        switch interval {
        case .none, .hour: 3_600
        case .day: 86_400
        case .week: 604_800
        case .month: 2_629_746
        }
    }

    /// The shortest and longest the interval can be, in seconds, allowing for DST shifts of up to 3 hours.
    private var lengthRange: (shortest: Double, longest: Double) {
        let slack: Double = 3 * 3_600
        switch interval {
        case .none, .hour: return (3_600, 3_600)
        case .day: return (86_400 - slack, 86_400 + slack)
        case .week: return (604_800 - slack, 604_800 + slack)
        case .month: return (28 * 86_400 - slack, 31 * 86_400 + slack)
        }
    }

    private static let outOfRange = BrokerError.invalidArgument("statistics: a bucket boundary is outside the supported date range")

    private static func clampedInt(_ value: Double) -> Int {
        value >= Double(Int.max) ? .max : value <= 0 ? 0 : Int(value)
    }
}

private extension Double {
    /// The value limited to `range`.
    func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
