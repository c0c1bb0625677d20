public import BrokerModel

/// One page of anchored changes: readable samples added and samples deleted, in change-sequence order.
public struct ChangePage: Sendable {
    /// A deleted sample: its identity is (source app, uuid).
    public struct Deletion: Sendable, Hashable {
        /// The deleted sample's uuid.
        public var uuid: String
        /// The app that had saved it.
        public var sourceAppID: String

        /// Creates a deletion.
        public init(uuid: String, sourceAppID: String) {
            self.uuid = uuid
            self.sourceAppID = sourceAppID
        }
    }

    /// Samples added, by sequence ascending.
    public var added: [Sample]
    /// Deleted samples, by sequence ascending, each at most once per page.
    public var deleted: [Deletion]
    /// The position of the last change this page returned (the position it started after when
    /// none): the next page starts after it, and the anchor carries it.
    public var lastSequence: Int64
    /// Whether changes beyond `lastSequence` (up to the requested bound) may remain.
    public var hasMore: Bool

    /// Creates a change page.
    public init(added: [Sample], deleted: [Deletion], lastSequence: Int64, hasMore: Bool) {
        self.added = added
        self.deleted = deleted
        self.lastSequence = lastSequence
        self.hasMore = hasMore
    }
}
