#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC: the one clock every latency, schedule and window here is taken on.
enum MonotonicClock {
    /// The current monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Whole nanoseconds in `seconds` (negative and non-finite values count as 0).
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return UInt64((seconds * 1e9).rounded())
    }
}
