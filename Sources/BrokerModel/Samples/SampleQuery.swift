/// A clamped sample query: type, predicate, limit, order, result unit and page size.
public struct SampleQuery: Sendable, Hashable {
    /// The type to read.
    public var type: ObjectType
    /// The date range.
    public var predicate: SamplePredicate
    /// The most samples to return; 0 means no limit.
    public var limit: UInt32
    /// The order.
    public var sort: SampleSort
    /// The unit quantities come back in; empty: the type's canonical unit.
    public var unit: String
    /// Samples per streamed page; 0: the broker's default (512).
    public var pageSize: UInt32

    /// Creates a query.
    public init(type: ObjectType, predicate: SamplePredicate = .all, limit: UInt32 = 0, sort: SampleSort = SampleSort(), unit: String = "", pageSize: UInt32 = 0) {
        self.type = type
        self.predicate = predicate
        self.limit = limit
        self.sort = sort
        self.unit = unit
        self.pageSize = pageSize
    }
}
