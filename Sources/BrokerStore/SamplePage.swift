public import BrokerModel
public import BrokerPolicy

/// A position in a sorted sample query: the last returned sample's sort date and change sequence number.
public struct SampleCursor: Sendable, Hashable {
    /// The sort date (start or end, µs) of the last sample returned.
    public var sortValue: Int64
    /// The stored seq of the last sample returned (breaks ties between equal dates).
    public var sequence: Int64

    /// Creates a cursor.
    public init(sortValue: Int64, sequence: Int64) {
        self.sortValue = sortValue
        self.sequence = sequence
    }
}

/// One page of a clamped sample query: what to read, as whom, in which order, from where, how much.
public struct SamplePageRequest: Sendable {
    /// The type to read.
    public var type: ObjectType
    /// The date range (predicateForSamples semantics).
    public var predicate: SamplePredicate
    /// What the app may read of the type.
    public var scope: ReadScope
    /// The reading app (its own samples are always in scope).
    public var appID: String
    /// The order.
    public var sort: SampleSort
    /// The most samples in this page (≥ 1).
    public var pageSize: Int
    /// Where the previous page ended; nil for the first page.
    public var after: SampleCursor?
    /// How many samples the query may still return in all; nil for no limit.
    public var limit: Int?

    /// Creates a page request.
    public init(type: ObjectType, predicate: SamplePredicate = .all, scope: ReadScope, appID: String, sort: SampleSort = SampleSort(), pageSize: Int, after: SampleCursor? = nil, limit: Int? = nil) {
        self.type = type
        self.predicate = predicate
        self.scope = scope
        self.appID = appID
        self.sort = sort
        self.pageSize = pageSize
        self.after = after
        self.limit = limit
    }
}

/// One page of samples and where the next one starts.
public struct SamplePageResult: Sendable {
    /// The samples, in the requested order.
    public var samples: [Sample]
    /// The cursor for the next page; nil when there is no more (or the limit is reached).
    public var next: SampleCursor?

    /// Creates a page result.
    public init(samples: [Sample], next: SampleCursor?) {
        self.samples = samples
        self.next = next
    }
}
