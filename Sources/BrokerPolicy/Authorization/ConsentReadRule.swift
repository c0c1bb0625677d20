import BrokerModel

/// A consent rule's read part, before it is resolved against the moment of the decision.
enum ConsentReadRule: Sendable, Hashable {
    /// Full read access.
    case full
    /// Reading denied.
    case deny
    /// Limited from a fixed instant (µs since the epoch).
    case limitedFrom(Int64)
    /// Limited to the last N days, counted back from the moment the decision is made.
    case lastDays(Int64)

    /// The most days "last_days" may say: more would overflow µs arithmetic.
    static let maxDays: Int64 = Int64.max / ISODate.microsPerDay

    /// The decision to record now: "last N days" becomes the fixed instant now − N days (never a rolling window), at least 0; a fixed date is at most now.
    func decision(now: Int64) -> ReadDecision {
        switch self {
        case .full: return .full
        case .deny: return .deny
        // The loader refused dates after the moment it ran; should the clock have been set back
        // since, the decision is limited from now, never from a date still to come.
        case .limitedFrom(let from): return .limited(fromMicros: min(from, max(0, now)))
        case .lastDays(let days):
            let (from, overflow) = now.subtractingReportingOverflow(days * ISODate.microsPerDay)
            return .limited(fromMicros: overflow ? 0 : max(0, from))
        }
    }
}
