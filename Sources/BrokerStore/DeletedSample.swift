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
    /// For a deleted correlation, the type and end of each object it still held (its objects stay
    /// stored): who may learn of the deletion follows them. Empty for a sample.
    public var objects: [Object] = []
    /// Whether this is a correlation the delete removed because it removed one of its objects (a
    /// correlation cannot change), not one the caller named: not counted in the caller's reply.
    public var deletedWithAnObject = false

    /// A deleted correlation's object, as observers of its type are told about it.
    public struct Object: Sendable, Hashable {
        /// The object's type (a member type of the correlation's).
        public var type: ObjectType
        /// Its end (µs).
        public var endMicros: Int64

        /// Creates an object record.
        public init(type: ObjectType, endMicros: Int64) {
            self.type = type
            self.endMicros = endMicros
        }
    }

    /// Creates a deleted-sample record.
    public init(uuid: String, type: ObjectType, startMicros: Int64, endMicros: Int64, sourceAppID: String) {
        self.uuid = uuid
        self.type = type
        self.startMicros = startMicros
        self.endMicros = endMicros
        self.sourceAppID = sourceAppID
    }
}
