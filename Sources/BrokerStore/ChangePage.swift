import BrokerCore

/// One page of anchored changes: readable samples added and uuids deleted, in change-sequence order.
public struct ChangePage: Sendable {
    /// Samples added, by sequence ascending.
    public var added: [Sample]
    /// Deleted uuids, by sequence ascending, each at most once per page.
    public var deleted: [String]
    /// The last sequence position this page covers: the next page starts after it.
    public var lastSequence: Int64
    /// Whether changes beyond `lastSequence` (up to the requested bound) may remain.
    public var hasMore: Bool

    /// Creates a change page.
    public init(added: [Sample], deleted: [String], lastSequence: Int64, hasMore: Bool) {
        self.added = added
        self.deleted = deleted
        self.lastSequence = lastSequence
        self.hasMore = hasMore
    }
}
