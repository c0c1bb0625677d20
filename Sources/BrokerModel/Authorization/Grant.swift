/// What an app was granted for one type, as recorded.
public struct Grant: Sendable, Hashable {
    /// The type.
    public var type: ObjectType
    /// The share decision; nil when sharing was never asked.
    public var share: ShareDecision?
    /// The read decision; nil when reading was never asked.
    public var read: ReadDecision?
    /// When the latest part was decided.
    package var decidedMicros: Int64
    /// Who decided: "policy", "agent", …
    public var decidedBy: String

    /// Creates a grant.
    package init(type: ObjectType, share: ShareDecision? = nil, read: ReadDecision? = nil, decidedMicros: Int64, decidedBy: String) {
        self.type = type
        self.share = share
        self.read = read
        self.decidedMicros = decidedMicros
        self.decidedBy = decidedBy
    }
}
