/// The phases of a run on the monotonic clock: warm-up, the measured window, then draining.
///
/// A call belongs to the measurement when its start (its intended start, open loop) lies in
/// [`measureStart`, `measureEnd`). No call starts at or after `measureEnd`; calls still in flight
/// then have until `drainDeadline` to finish, after which they count as client timeouts.
struct MeasurementWindow: Sendable, Equatable {
    /// When the load starts (warm-up begins).
    var loadStart: UInt64
    /// When measuring starts.
    var measureStart: UInt64
    /// When measuring stops and no more calls start.
    var measureEnd: UInt64
    /// When calls still in flight are given up.
    var drainDeadline: UInt64

    /// A window starting at `start`: `warmup` seconds, then `duration` seconds measured, then up to
    /// `drain` seconds for calls in flight.
    init(start: UInt64, warmup: Double, duration: Double, drain: Double) {
        loadStart = start
        measureStart = start + MonotonicClock.nanoseconds(warmup)
        measureEnd = measureStart + MonotonicClock.nanoseconds(duration)
        drainDeadline = measureEnd + MonotonicClock.nanoseconds(drain)
    }

    /// Whether a call started at `start` is measured.
    @inline(__always)
    func isMeasured(_ start: UInt64) -> Bool {
        start >= measureStart && start < measureEnd
    }

    /// The measured window's length in seconds.
    var durationSeconds: Double { Double(measureEnd - measureStart) / 1e9 }
}
