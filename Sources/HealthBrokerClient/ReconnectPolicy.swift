import Foundation

/// How a `HealthStore` reconnects after its connection to the broker ends: exponential backoff with jitter.
///
/// Before reconnection attempt `n` (0 for the first) the store waits `initialDelay × multiplierⁿ`,
/// capped at `maxDelay`, then moved by up to ±`jitter` of itself at random (so many apps do not all
/// come back at the same instant). Each attempt connects and replays Hello with the same app id and
/// token. With `maxAttempts` set, the store gives up after that many failed attempts.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before the first attempt.
    public var initialDelay: Duration = .milliseconds(50)
    /// The longest wait between attempts, before jitter.
    public var maxDelay: Duration = .seconds(5)
    /// How much the wait grows after each failed attempt (below 1 counts as 1).
    public var multiplier: Double = 2
    /// The fraction of each wait that is randomised either way (0: none; clamped to 0…1).
    public var jitter: Double = 0.2
    /// Failed attempts after which the store gives up for good; nil: it never gives up.
    public var maxAttempts: Int?

    /// Creates a policy; the defaults are those of `standard`.
    public init(initialDelay: Duration = .milliseconds(50), maxDelay: Duration = .seconds(5), multiplier: Double = 2, jitter: Double = 0.2, maxAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.maxAttempts = maxAttempts
    }

    /// 50 ms, doubling up to 5 s, ±20 % jitter, never giving up.
    public static let standard = ReconnectPolicy()

    /// The wait before attempt `attempt` (0 for the first) without jitter: the middle of its range.
    public func baseDelay(beforeAttempt attempt: Int) -> Duration {
        let initial = max(0, initialDelay / .seconds(1))
        let cap = max(0, maxDelay / .seconds(1))
        let growth = multiplier.isFinite ? max(1, multiplier) : 1
        let grown = initial * pow(growth, Double(max(0, attempt)))
        return Self.duration(seconds: grown.isFinite ? min(grown, cap) : cap)
    }

    /// The wait before attempt `attempt` for a jitter sample in -1…1 (-1: shortest, 1: longest).
    public func delay(beforeAttempt attempt: Int, jitterSample: Double) -> Duration {
        let base = baseDelay(beforeAttempt: attempt) / .seconds(1)
        let sample = jitterSample.isFinite ? min(1, max(-1, jitterSample)) : 0
        return Self.duration(seconds: base * (1 + clampedJitter * sample))
    }

    /// Every wait `delay(beforeAttempt:jitterSample:)` can give for attempt `attempt`.
    public func delayRange(beforeAttempt attempt: Int) -> ClosedRange<Duration> {
        delay(beforeAttempt: attempt, jitterSample: -1)...delay(beforeAttempt: attempt, jitterSample: 1)
    }

    private var clampedJitter: Double {
        jitter.isFinite ? min(1, max(0, jitter)) : 0
    }

    /// `seconds` as a Duration, whole nanoseconds, never negative, at most about a year.
    private static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((min(max(0, seconds), 31_536_000) * 1e9).rounded()))
    }
}
