/// An anchored query: what was added or deleted since `anchor` (everything when the anchor is empty).
public struct AnchoredQuery: Sendable, Hashable {
    /// The type to read.
    public var type: ObjectType
    /// The date range.
    public var predicate: SamplePredicate
    /// The opaque anchor from the last call; empty for the first call.
    public var anchor: [UInt8]
    /// The most added samples to return; 0 means no limit.
    public var limit: UInt32
    /// The unit quantities come back in; empty: canonical.
    public var unit: String

    /// Creates an anchored query.
    public init(type: ObjectType, predicate: SamplePredicate = .all, anchor: [UInt8] = [], limit: UInt32 = 0, unit: String = "") {
        self.type = type
        self.predicate = predicate
        self.anchor = anchor
        self.limit = limit
        self.unit = unit
    }
}

/// One page of an anchored query's answer; the last page has `done` and the new anchor.
public struct AnchoredPage: Sendable, Hashable {
    /// Samples added (and readable) since the anchor.
    public var added: [Sample]
    /// UUIDs of readable samples deleted since the anchor.
    public var deletedUUIDs: [String]
    /// The source app id of each deleted sample, parallel to `deletedUUIDs`.
    ///
    /// A sample's identity is (source app, uuid), so a uuid alone does not say whose sample went. The
    /// two arrays should have the same length; a page from the wire where they differ is kept as it
    /// came (the client pairs a uuid without a source app id with "").
    public var deletedSourceAppIDs: [String]
    /// The anchor for the next call; set on the last page.
    public var newAnchor: [UInt8]
    /// True on the last page.
    public var done: Bool

    /// Creates a page.
    public init(
        added: [Sample] = [], deletedUUIDs: [String] = [], deletedSourceAppIDs: [String] = [], newAnchor: [UInt8] = [],
        done: Bool = false
    ) {
        self.added = added
        self.deletedUUIDs = deletedUUIDs
        self.deletedSourceAppIDs = deletedSourceAppIDs
        self.newAnchor = newAnchor
        self.done = done
    }
}
