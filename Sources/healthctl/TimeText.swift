/// How healthctl's text output writes instants: in the person's time zone (`TZ`, else the
/// system's), or in UTC with `--utc`. JSON output always carries UTC (ISO-8601 plus `_us`).
struct TimeText: Sendable, Equatable {
    /// Whether to write UTC instead of local time.
    var utc: Bool

    /// Local time, the default for people.
    static let local = TimeText(utc: false)
    /// UTC, for `--utc` (and for logs read across machines).
    static let universal = TimeText(utc: true)

    /// A column header's zone: `(LOCAL)` or `(UTC)`.
    var headerSuffix: String { utc ? "(UTC)" : "(LOCAL)" }

    /// `2026-06-15 14:03:07 CEST`, or `2026-06-15T12:03:07Z` in UTC.
    func instant(_ micros: Int64) -> String {
        utc ? UTCTimestamp.string(micros: micros) : LocalTime.secondString(micros: micros)
    }

    /// A date the person picked (a limited grant's start): its day when it is a midnight in this
    /// zone, as it was typed (`2026-06-03`), else the instant to the minute (local) or second (UTC).
    func dateOrInstant(_ micros: Int64) -> String {
        utc ? DecisionText.instant(micros) : LocalTime.dateOrInstant(micros: micros)
    }
}
