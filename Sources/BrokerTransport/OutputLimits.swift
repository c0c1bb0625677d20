/// When a connection stops reading because its peer is not taking replies fast enough.
public struct OutputLimits: Sendable, Hashable {
    /// Queued output bytes at which the broker stops reading from the connection.
    public var highWater: Int
    /// Queued output bytes at which it starts reading again.
    public var lowWater: Int
    /// How long a connection may stay stalled (paused, its peer not reading) before it is closed.
    public var stallTimeoutMicros: Int64

    /// Creates limits; `lowWater` is clamped to at most `highWater`.
    public init(highWater: Int, lowWater: Int? = nil, stallTimeoutMicros: Int64 = 30_000_000) {
        self.highWater = highWater
        self.lowWater = min(lowWater ?? highWater / 4, highWater)
        self.stallTimeoutMicros = stallTimeoutMicros
    }
}
