#if canImport(Glibc)
import Glibc
#endif

/// Instants are int64 microseconds since the Unix epoch (UTC), on the wire and in SQLite.
public enum Microseconds {
    /// One second in microseconds.
    public static let perSecond: Int64 = 1_000_000

    /// The current wall-clock time.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * perSecond + Int64(ts.tv_nsec) / 1_000
    }

    /// A monotonic clock reading, for deadlines and durations (not an instant).
    public static func monotonic() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * perSecond + Int64(ts.tv_nsec) / 1_000
    }
}
