/// A timeout that counts only the time its waiting task was being scheduled.
///
/// Each look at `hasPassed` counts the time since the previous look, but at most `longestPass`
/// (50 ms unless given). In the parallel suite the cooperative pool can sit behind CPU-bound suites
/// for tens of seconds; a wall-clock deadline then expires while the task (and often the work it
/// waits for) did not run, and the test fails although nothing is wrong. Counted this way, a wait
/// that starved is not failed the moment it runs again, while a condition that never comes true
/// still fails after about `timeout` of polling. Poll with a short sleep (a few ms) between looks.
public struct ScheduledDeadline: Sendable {
    /// How much scheduled time the wait may take.
    public let timeout: Duration
    /// The most one pass counts.
    public let longestPass: Duration
    private var waited = Duration.zero
    private var last: ContinuousClock.Instant

    /// Starts counting now.
    public init(_ timeout: Duration, longestPass: Duration = .milliseconds(50)) {
        self.timeout = timeout
        self.longestPass = longestPass
        last = ContinuousClock.now
    }

    /// Creates a deadline of `seconds`.
    public init(seconds: Double) {
        self.init(.milliseconds(Int64(seconds * 1_000)))
    }

    /// Counts the pass since the previous look; true once the counted time reaches `timeout`.
    ///
    /// Check the awaited condition once more after this turns true: the pass that used up the time
    /// may have been the one in which it came true.
    public mutating func hasPassed() -> Bool {
        let now = ContinuousClock.now
        waited += min(now - last, longestPass)
        last = now
        return waited >= timeout
    }
}

/// Polls `condition` every `interval` until it holds or `timeout` of scheduled time passed
/// (`ScheduledDeadline`); returns its last value.
public func pollUntil(
    within timeout: Duration, every interval: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    var deadline = ScheduledDeadline(timeout)
    while try await !condition() {
        if deadline.hasPassed() { return try await condition() }
        try? await Task.sleep(for: interval)
    }
    return true
}
