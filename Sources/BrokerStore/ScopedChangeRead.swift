import BrokerModel

/// How a scope reads changes in seq order, shared by added samples and tombstones.
///
/// Own samples only: the app's own rows. Full access: every row. From a floor F: the rows ending at
/// or after F (any app), merged by seq with the app's own rows ending before F. Each part is one
/// statement the caller picks; no part reads a row the reader may not see.
enum ScopedChangeRead {
    /// One statement's share of a read, with the bounds it scans.
    enum Part {
        /// The reading app's own rows within the bounds.
        case own(SampleBounds, appCode: Int64)
        /// Every row within the bounds (full access).
        case all(SampleBounds)
        /// Every row within the bounds, which end at or after the floor.
        case visible(SampleBounds)
    }

    /// Up to `limit` rows `scope` shows of `predicate`, by seq; `read` runs one part.
    static func rows<Row>(
        scope: ScopeFilter, predicate: SamplePredicate, spans: ReadSpans, limit: Int,
        read: (Part) throws(BrokerError) -> [(sequence: Int64, sample: Row)]
    ) throws(BrokerError) -> [(sequence: Int64, sample: Row)] {
        let all = SampleBounds(predicate, maxDurationMicros: spans.all)
        let own = SampleBounds(predicate, maxDurationMicros: spans.own)
        guard let floor = scope.fromMicros else {
            guard let ownCode = scope.ownCode, let own else { return [] }
            return try read(.own(own, appCode: ownCode))
        }
        guard floor > .min else { return try all.map { (bounds) throws(BrokerError) in try read(.all(bounds)) } ?? [] }
        let visible = try all?.endingAtOrAfter(floor, maxDurationMicros: spans.all)
            .map { (bounds) throws(BrokerError) in try read(.visible(bounds)) } ?? []
        guard let ownCode = scope.ownCode, let earlier = own?.endingBefore(floor) else { return visible }
        return SampleTable.mergeBySequence(visible, try read(.own(earlier, appCode: ownCode)), limit: limit)
    }
}
