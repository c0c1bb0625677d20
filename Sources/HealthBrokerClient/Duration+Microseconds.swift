/// Conversions between `Duration` and the wire's microsecond counts.
extension Duration {
    /// This duration in whole microseconds, rounded up (towards +∞) and saturating at the `Int64` bounds.
    ///
    /// Rounding up keeps a positive sub-microsecond timeout positive: on the wire 0 means "no deadline".
    package var wholeMicrosecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        let attosecondsPerMicrosecond: Int64 = 1_000_000_000_000
        var micros = attoseconds / attosecondsPerMicrosecond
        if attoseconds % attosecondsPerMicrosecond > 0 { micros += 1 }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowSum) = scaled.addingReportingOverflow(micros)
        if overflowSum { return micros < 0 ? .min : .max }
        return sum
    }
}
