/// One line of the access log the person can read: who read or wrote which type, when, how many.
public struct AccessLogEntry: Sendable, Hashable {
    /// When.
    package var atMicros: Int64
    /// Which app.
    public var appID: String
    /// "read", "write" or "delete".
    public var operation: String
    /// Which type.
    public var type: ObjectType
    /// How many samples (never their values).
    public var sampleCount: UInt64

    /// Creates an entry.
    package init(atMicros: Int64, appID: String, operation: String, type: ObjectType, sampleCount: UInt64) {
        self.atMicros = atMicros
        self.appID = appID
        self.operation = operation
        self.type = type
        self.sampleCount = sampleCount
    }
}
