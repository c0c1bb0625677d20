/// What a sample query of an app may return for one type.
public enum ReadScope: Sendable, Hashable {
    /// The app never asked to read the type.
    case notDetermined
    /// Reading was denied: the app sees only samples it saved itself (and is never told why).
    case ownSamplesOnly
    /// Samples whose end date is at or after this instant (µs since the epoch), from any source.
    case from(Int64)
}
