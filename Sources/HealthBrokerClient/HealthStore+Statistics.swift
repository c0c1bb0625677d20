import BrokerModel
import BrokerWire

extension HealthStore {
    /// Sums (cumulative types) or averages, minima and maxima (discrete types) over a range or per calendar interval.
    ///
    /// Computed by the broker over the samples the app may read. Asking for a sum of a discrete type
    /// (or the others of a cumulative one) is INVALID_ARGUMENT; no sample at all is NOT_FOUND with
    /// `noData`. Intervals are calendar hours, days, weeks or months in the query's IANA time zone.
    public func statistics(_ query: StatisticsQuery) async throws(BrokerError) -> StatisticsResult {
        try await connection.unary(.statistics(query.proto), timeout: Self.lookupTimeout) { response in
            if case .statistics(let result) = response { StatisticsResult(proto: result) } else { nil }
        }
    }

    /// Notifies each change to samples of `types` that the app may read (what changed is read with an anchored query).
    ///
    /// The stream has no deadline and fires only for changes the app may read; each iteration opens
    /// its own observation, and leaving the loop ends it. For a correlation type it fires when a
    /// correlation with an object the app may read is saved or deleted.
    public func observe(_ types: Set<ObjectType>) -> SampleChangeSequence {
        SampleChangeSequence(stream: connection.stream(.observe(.with { $0.types = types.wireOrder.map(\.identifier) }), timeout: nil, window: SampleChangeSequence.window))
    }
}
