/// How query results are ordered.
public struct SampleSort: Sendable, Hashable {
    /// The date to sort by.
    public enum Key: Int32, Sendable, Hashable {
        /// By start date.
        case startDate = 0
        /// By end date.
        case endDate = 1
    }

    /// The date to sort by.
    public var key: Key
    /// Newest first when true.
    public var descending: Bool

    /// Creates a sort order.
    public init(key: Key = .startDate, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }
}
