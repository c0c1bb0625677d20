/// One line of the access log the person can read: who read or wrote which type, when, how many,
/// through which call. One line per call and type (an import's chunks share one line).
public struct AccessLogEntry: Sendable, Hashable {
    /// When (the call's end; for an import, its latest chunk).
    package var atMicros: Int64
    /// Which app.
    public var appID: String
    /// "read", "write" or "delete".
    public var operation: String
    /// Which type.
    public var type: ObjectType
    /// How many samples (never their values): returned, written or deleted; for Statistics, the
    /// samples that contributed.
    public var sampleCount: UInt64
    /// The call: "Query", "AnchoredQuery", "Statistics", "Save", "Delete", "AdminImport"; empty for
    /// rows an older broker wrote.
    public var method: String

    /// Creates an entry.
    package init(atMicros: Int64, appID: String, operation: String, type: ObjectType, sampleCount: UInt64, method: String = "") {
        self.atMicros = atMicros
        self.appID = appID
        self.operation = operation
        self.type = type
        self.sampleCount = sampleCount
        self.method = method
    }
}
