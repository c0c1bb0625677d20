/// A person's decision on reading one type: full history, limited from a date, or denied.
public enum ReadDecision: Sendable, Hashable {
    /// Reading denied (the app is never told).
    case deny
    /// Every sample not before the store's earliest permitted date.
    case full
    /// Only samples whose end date is at or after this instant (µs since the epoch).
    case limited(fromMicros: Int64)
}
