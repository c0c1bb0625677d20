public import BrokerModel

/// A sample a delete removed: enough to notify observers and clamp its tombstone (never its value).
public struct DeletedSample: Sendable, Hashable {
    /// The sample's uuid.
    public var uuid: String
    /// The sample's type.
    public var type: ObjectType
    /// Its start (µs).
    public var startMicros: Int64
    /// Its end (µs).
    public var endMicros: Int64
    /// The app that saved it.
    public var sourceAppID: String

    /// Creates a deleted-sample record.
    public init(uuid: String, type: ObjectType, startMicros: Int64, endMicros: Int64, sourceAppID: String) {
        self.uuid = uuid
        self.type = type
        self.startMicros = startMicros
        self.endMicros = endMicros
        self.sourceAppID = sourceAppID
    }
}
