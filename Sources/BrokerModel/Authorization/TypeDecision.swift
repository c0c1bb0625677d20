/// A person's answer for one type: a share part, a read part, or both.
public struct TypeDecision: Sendable, Hashable {
    /// The type.
    public var type: ObjectType
    /// The share decision, if this answer covers sharing.
    public var share: ShareDecision?
    /// The read decision, if this answer covers reading.
    public var read: ReadDecision?

    /// Creates a decision.
    public init(type: ObjectType, share: ShareDecision? = nil, read: ReadDecision? = nil) {
        self.type = type
        self.share = share
        self.read = read
    }
}
