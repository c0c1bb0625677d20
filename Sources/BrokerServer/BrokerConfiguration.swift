public import BrokerPolicy
public import BrokerSupport

/// Everything the daemon is told at start: paths, limits and logging.
public struct BrokerConfiguration: Sendable {
    /// The app socket (mode 0666: any local user may connect; identity is the app token).
    public var appSocketPath: String = DefaultPaths.appSocket
    /// The admin socket (mode 0600, peer uid checked).
    public var adminSocketPath: String = DefaultPaths.adminSocket
    /// The folder holding the SQLite database (created 0700).
    public var dataDirectory: String = DefaultPaths.dataDirectory
    /// The largest frame accepted, in bytes.
    public var maxFrameBytes: Int = 4 * 1024 * 1024
    /// The most calls one connection may have in flight.
    public var maxCallsInFlight: Int = 4_096
    /// Queued output bytes per connection at which the broker stops reading from it.
    public var outputHighWater: Int = 1024 * 1024
    /// How long a connection may leave replies unread (paused at the high-water mark) before it is closed.
    public var stallTimeoutMicros: Int64 = 30 * Microseconds.perSecond
    /// How long an app connection may go without a successful Hello before it is closed.
    public var helloTimeoutMicros: Int64 = 10 * Microseconds.perSecond
    /// How long a frame may take to arrive whole once its first byte came, before the connection is closed.
    public var frameTimeoutMicros: Int64 = 10 * Microseconds.perSecond
    /// Open app-socket connections allowed in all.
    public var maxConnections: Int = 16_384
    /// Open app-socket connections allowed per peer uid.
    public var maxConnectionsPerUID: Int = 8_192
    /// Open admin-socket connections allowed (in all; only the person's uid, root and `adminUID` get
    /// in). Counted apart from the app limits, so apps running as the person's uid cannot use up the
    /// places healthctl and consent agents need.
    public var maxAdminConnections: Int = 64
    /// Authorization requests one app may have waiting (queued behind its open prompt).
    public var maxQueuedAuthorizationRequests: Int = 16
    /// A cap on the database size in pages (SQLite max_page_count); 0 means SQLite's default.
    public var maxDatabasePages: Int = 0
    /// How long in-flight calls get to finish after SIGTERM, in microseconds.
    public var shutdownGraceMicros: Int64 = 5 * Microseconds.perSecond
    /// A uid besides the daemon's own that may use the admin socket.
    public var adminUID: UInt32?
    /// The store-wide floor: no app reads or writes samples before it (default 2000-01-01T00:00:00Z).
    public var earliestPermittedMicros: Int64 = 946_684_800 * Microseconds.perSecond
    /// Rules that decide authorization prompts before any person sees them (as read at start).
    public var consentPolicy: ConsentPolicy?
    /// The file `consentPolicy` was read from: SIGHUP reads it again. Nil: SIGHUP has nothing to reload.
    public var consentPolicyPath: String?
    /// How long deletions are remembered for anchored queries (default 30 days).
    public var tombstoneRetentionMicros: Int64 = 30 * 86_400 * Microseconds.perSecond
    /// Whether every acknowledged write also survives power loss, not only a killed process.
    ///
    /// SQLite's synchronous=FULL guarantee, reached another way: the store commits at NORMAL and
    /// a `WALSyncer` thread fsyncs the WAL after each group of commits; a call's result (a save's
    /// acknowledgement, or a read that saw a write) leaves the broker only after that fsync.
    public var durableAgainstPowerLoss = false
    /// The lowest level logged.
    public var logLevel: Logger.Level = .info
    /// A listening app socket the service manager passed (socket activation): served instead of
    /// binding `appSocketPath`, and never removed (the manager owns its file).
    public var inheritedAppSocket: Int32?
    /// A listening admin socket the service manager passed, as `inheritedAppSocket`.
    public var inheritedAdminSocket: Int32?
    /// Called on the loop thread once both sockets listen and the store is open, and again when a
    /// SIGHUP reload has finished: the broker serves. The daemon tells systemd (`READY=1`).
    public var onReady: (@Sendable () -> Void)?
    /// Called on the loop thread when a SIGHUP reload of the consent policy begins (`RELOADING=1`).
    public var onReloading: (@Sendable () -> Void)?
    /// Called on the loop thread when shutdown begins (`STOPPING=1`).
    public var onStopping: (@Sendable () -> Void)?

    /// Creates the default configuration.
    public init() {}
}
