public import Foundation
import BrokerModel
import BrokerWire

extension HealthStore {
    /// How long a delete may take before the client gives up.
    static let deleteTimeout: Duration = .seconds(60)

    /// Saves `samples` as one batch, all or nothing, and returns once the broker has committed it.
    ///
    /// Needs share authorization for every type: never asked is FAILED_PRECONDITION with
    /// `authorizationNotDetermined`, denied is PERMISSION_DENIED with `authorizationDenied`. An invalid
    /// sample (end before start, a negative cumulative value, a unit of the wrong dimension, a date
    /// before `earliestPermittedSampleDate()`) is INVALID_ARGUMENT naming its index. Saving is
    /// idempotent by uuid: the same content again counts as unchanged, other content under a stored
    /// uuid is ALREADY_EXISTS. `timeout` nil means no deadline.
    public func save(_ samples: [Sample], timeout: Duration? = nil) async throws(BrokerError) -> SaveResult {
        try await connection.unary(.save(.with { $0.samples = samples.map(\.proto) }), timeout: timeout) { response in
            if case .save(let saved) = response { SaveResult(saved: Int(saved.saved), unchanged: Int(saved.unchanged)) } else { nil }
        }
    }

    /// Deletes the samples with these uuids, which the app must have saved itself; returns how many were deleted.
    ///
    /// A uuid the app does not hold (another app's, never saved, already deleted) is skipped and not
    /// counted. A correlation's uuid deletes the correlation, not its objects; an object's uuid deletes
    /// the object and the correlation holding it (a correlation cannot change), which is reported as
    /// deleted to the apps that could see it but not counted here. An empty list deletes nothing
    /// without asking the broker.
    public func delete(_ uuids: [String]) async throws(BrokerError) -> Int {
        guard !uuids.isEmpty else { return 0 }
        return try await runDelete(.with { $0.uuids = uuids })
    }

    /// Deletes every sample of `type` matching `predicate` that the app saved itself; returns how many were deleted.
    ///
    /// As with `delete(_:)`, a correlation holding a deleted object is deleted too, and not counted.
    public func deleteSamples(of type: ObjectType, predicate: SamplePredicate) async throws(BrokerError) -> Int {
        try await runDelete(.with { $0.type = type.identifier; $0.predicate = predicate.proto })
    }

    /// The samples of `type` matching `predicate` that the app may read, streamed in pages.
    ///
    /// Streams pages under flow control (a window of a few pages) and yields samples one by one; memory stays flat for millions.
    /// The broker clamps the answer to the app's read scope. `limit` 0 means no limit; `sort` orders by
    /// start or end date; quantities come back in `unit` (empty: the type's canonical unit); `pageSize`
    /// 0 lets the broker choose. A negative `limit` or `pageSize` fails the first `next()` with
    /// INVALID_ARGUMENT. Never asked for read access is FAILED_PRECONDITION with
    /// `authorizationNotDetermined`. Cancelling the iterating task, or leaving the loop, cancels the call.
    public func samples(of type: ObjectType, predicate: SamplePredicate = .all, limit: Int = 0, sort: SampleSort = SampleSort(), unit: String = "", pageSize: Int = 0) -> SampleSequence {
        var query = SampleQuery(type: type, predicate: predicate, sort: sort, unit: unit)
        var invalid: BrokerError?
        do throws(BrokerError) {
            query.limit = try wireCount(limit, "limit")
            query.pageSize = try wireCount(pageSize, "pageSize")
        } catch {
            invalid = error
        }
        let stream = connection.stream(.query(query.proto), timeout: nil, window: SampleSequence.pageWindow)
        return SampleSequence(stream: stream, invalid: invalid)
    }

    /// As HKQuery.predicateForSamples(withStart:end:options:).
    ///
    /// No options: samples overlapping the range (end ≥ `start` and start < `end`); `.strictStartDate`:
    /// samples starting in it; `.strictEndDate`: samples ending in it. `end` is exclusive and a nil
    /// bound is open. Dates become whole microseconds (rounded to the nearest).
    public static func predicateForSamples(withStart start: Date?, end: Date?, options: SamplePredicate.Options = []) -> SamplePredicate {
        SamplePredicate(startMicros: start?.microsecondsSince1970, endMicros: end?.microsecondsSince1970, options: options)
    }

    private func runDelete(_ request: Proto.DeleteRequest) async throws(BrokerError) -> Int {
        try await connection.unary(.delete(request), timeout: Self.deleteTimeout) { response in
            if case .delete(let deleted) = response { Int(deleted.deleted) } else { nil }
        }
    }
}
