/// The broker's status as the admin sees it.
public struct BrokerInfo: Sendable, Hashable {
    /// The broker's release version.
    public var brokerVersion: String
    /// When the daemon started.
    package var startedMicros: Int64
    /// App connections open now.
    public var appConnections: UInt32
    /// Admin connections open now.
    public var adminConnections: UInt32
    /// Calls completed since start.
    public var callsServed: UInt64
    /// The data directory.
    public var dataDirectory: String
    /// The broker's wall clock.
    package var brokerTimeMicros: Int64
    /// Reply frames written since start.
    public var framesSent: UInt64 = 0
    /// Write syscalls that carried them (fewer than frames when replies are batched).
    public var writeCalls: UInt64 = 0
    /// Whether acknowledged writes survive power loss (the daemon's `--synchronous-full`), not only a killed process.
    public var powerLossDurable = false
    /// WAL fsyncs made so that results could leave the broker (0 unless `powerLossDurable`).
    public var walFsyncs: UInt64 = 0
    /// Consent agents connected now (`healthctl consent` and other AdminWatchPrompts streams).
    public var consentAgents: UInt32 = 0
    /// Prompts raised and waiting for a person's answer.
    public var openPrompts: UInt32 = 0
    /// Those prompts, oldest first.
    public var prompts: [Prompt] = []

    /// Creates broker info.
    package init(brokerVersion: String, startedMicros: Int64, appConnections: UInt32, adminConnections: UInt32, callsServed: UInt64, dataDirectory: String, brokerTimeMicros: Int64) {
        self.brokerVersion = brokerVersion
        self.startedMicros = startedMicros
        self.appConnections = appConnections
        self.adminConnections = adminConnections
        self.callsServed = callsServed
        self.dataDirectory = dataDirectory
        self.brokerTimeMicros = brokerTimeMicros
    }
}
