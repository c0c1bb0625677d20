import BrokerModel

/// The broker's status as a JSON object; instants as ISO-8601 plus `_us`, uptime in microseconds.
struct StatusJSON: Encodable, Equatable {
    /// The broker's answer.
    var info: BrokerInfo

    /// Wraps `info`.
    init(_ info: BrokerInfo) {
        self.info = info
    }

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case brokerVersion = "broker_version", started, startedMicros = "started_us"
        case brokerTime = "broker_time", brokerTimeMicros = "broker_time_us", uptimeMicros = "uptime_us"
        case appConnections = "app_connections", adminConnections = "admin_connections"
        case callsServed = "calls_served", dataDirectory = "data_directory"
        case powerLossDurable = "power_loss_durable", walFsyncs = "wal_fsyncs"
        case consentAgents = "consent_agents", openPrompts = "open_prompts", prompts
    }

    /// Writes every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info.brokerVersion, forKey: .brokerVersion)
        try container.encode(UTCTimestamp.string(micros: info.startedMicros, fractional: true), forKey: .started)
        try container.encode(info.startedMicros, forKey: .startedMicros)
        try container.encode(UTCTimestamp.string(micros: info.brokerTimeMicros, fractional: true), forKey: .brokerTime)
        try container.encode(info.brokerTimeMicros, forKey: .brokerTimeMicros)
        try container.encode(max(0, info.brokerTimeMicros - info.startedMicros), forKey: .uptimeMicros)
        try container.encode(info.appConnections, forKey: .appConnections)
        try container.encode(info.adminConnections, forKey: .adminConnections)
        try container.encode(info.callsServed, forKey: .callsServed)
        try container.encode(info.dataDirectory, forKey: .dataDirectory)
        try container.encode(info.powerLossDurable, forKey: .powerLossDurable)
        try container.encode(info.walFsyncs, forKey: .walFsyncs)
        try container.encode(info.consentAgents, forKey: .consentAgents)
        try container.encode(info.openPrompts, forKey: .openPrompts)
        try container.encode(info.prompts.map(PromptJSON.init), forKey: .prompts)
    }
}
