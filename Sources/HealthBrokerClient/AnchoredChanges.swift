import BrokerCore

/// What an anchored query found: samples added and uuids deleted since the anchor, and the next anchor.
public struct AnchoredChanges: Sendable {
    /// Readable samples added since the anchor (every matching one when there was no anchor).
    public var added: [Sample]
    /// UUIDs of readable samples deleted since the anchor.
    public var deletedUUIDs: [String]
    /// The anchor to pass next time to get only what changed after this answer.
    public var newAnchor: QueryAnchor

    /// Creates changes.
    public init(added: [Sample], deletedUUIDs: [String], newAnchor: QueryAnchor) {
        self.added = added
        self.deletedUUIDs = deletedUUIDs
        self.newAnchor = newAnchor
    }
}
