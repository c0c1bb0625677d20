import BrokerModel

/// What an anchored query found: samples added and deleted since the anchor, and the next anchor.
public struct AnchoredChanges: Sendable {
    /// Readable samples added since the anchor (every matching one when there was no anchor).
    public var added: [Sample]
    /// Readable samples deleted since the anchor, each by source app and uuid, in the broker's order.
    public var deleted: [DeletedObject]
    /// The anchor to pass next time to get only what changed after this answer.
    public var newAnchor: QueryAnchor

    /// The uuids of `deleted`, in its order; kept for callers from before `deleted`.
    ///
    /// Two apps' samples may share a uuid, so this can hold a uuid twice: prefer `deleted`.
    public var deletedUUIDs: [String] {
        deleted.map(\.uuid)
    }

    /// Creates changes.
    public init(added: [Sample], deleted: [DeletedObject], newAnchor: QueryAnchor) {
        self.added = added
        self.deleted = deleted
        self.newAnchor = newAnchor
    }

    /// Creates changes from deleted uuids alone, their source apps unknown (empty).
    public init(added: [Sample], deletedUUIDs: [String], newAnchor: QueryAnchor) {
        self.init(added: added, deleted: deletedUUIDs.map { DeletedObject(uuid: $0, sourceAppID: "") }, newAnchor: newAnchor)
    }
}
