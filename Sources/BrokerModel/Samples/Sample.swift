/// One health sample: a typed value over a time span, from a source app.
public struct Sample: Sendable, Hashable {
    /// Chosen by the saving client; saving the same uuid with the same content again is a no-op.
    public var uuid: String
    /// The sample's type.
    public var type: ObjectType
    /// Start, µs since the epoch.
    package var startMicros: Int64
    /// End, µs since the epoch (≥ start).
    package var endMicros: Int64
    /// The payload.
    public var value: SampleValue
    /// Free-form string metadata.
    public var metadata: [String: String]
    /// The app that saved it; set by the broker on reads.
    public var sourceAppID: String
    /// When the broker stored it; set by the broker on reads.
    package var createdMicros: Int64

    /// Creates a sample.
    package init(uuid: String, type: ObjectType, startMicros: Int64, endMicros: Int64, value: SampleValue, metadata: [String: String] = [:], sourceAppID: String = "", createdMicros: Int64 = 0) {
        self.uuid = uuid
        self.type = type
        self.startMicros = startMicros
        self.endMicros = endMicros
        self.value = value
        self.metadata = metadata
        self.sourceAppID = sourceAppID
        self.createdMicros = createdMicros
    }
}
