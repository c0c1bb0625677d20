import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// Imports `samples` as if the app `appID` had saved them (the person's own data: no share check).
    ///
    /// All or nothing, with the same validation and idempotence as `HealthStore.save`: an invalid
    /// sample is INVALID_ARGUMENT naming its index, and nothing of the batch is stored. Calls that
    /// pass the same non-empty `batchID` (one import sent in chunks; at most 128 bytes) are one
    /// access-log row per type, counting all their samples.
    public func importSamples(_ samples: [Sample], as appID: String, batchID: String = "") async throws(BrokerError) -> SaveResult {
        let request = Proto.AdminImportRequest.with {
            $0.appID = appID
            $0.samples = samples.map(\.proto)
            $0.batchID = batchID
        }
        return try await connection.unary(.adminImport(request), timeout: Self.callTimeout) { response in
            if case .adminImport(let imported) = response { SaveResult(saved: Int(imported.saved), unchanged: Int(imported.unchanged)) } else { nil }
        }
    }

    /// Has the broker write a consistent copy of its whole store to the new file `path`, which must
    /// be absolute (the broker resolves it, not this process) and not exist yet (ALREADY_EXISTS).
    ///
    /// No deadline: a large store takes as long as its pages take to copy.
    public func backup(to path: String) async throws(BrokerError) -> (path: String, bytes: Int64, pages: Int64) {
        try await connection.unary(.adminBackup(.with { $0.path = path }), timeout: nil) { response in
            if case .adminBackup(let backup) = response { (backup.path, backup.bytes, backup.pages) } else { nil }
        }
    }

    /// Every stored sample (of `type`, saved by `appID`, when given), streamed in pages under flow control.
    ///
    /// The stream has no deadline; leaving the loop early cancels it.
    public func exportSamples(type: ObjectType? = nil, appID: String? = nil) -> SampleSequence {
        // A nil type or app id travels as "".
        let request = Proto.AdminExportRequest.with {
            $0.type = type?.identifier ?? ""
            $0.appID = appID ?? ""
        }
        return SampleSequence(stream: connection.stream(.adminExport(request), timeout: nil, window: SampleSequence.pageWindow))
    }

    /// The person's own statistics of a type, over every source's samples (no app's scope, no
    /// floor), with the parameters and rules of `HealthStore.statistics`: sums for cumulative types,
    /// average / minimum / maximum for discrete ones, over the range or per calendar interval in the
    /// query's IANA time zone. Buckets without samples are left out; no samples at all is an empty
    /// result (unlike an app's NOT_FOUND `noData`). Not written to the access log.
    public func statistics(_ query: StatisticsQuery) async throws(BrokerError) -> StatisticsResult {
        try await connection.unary(.adminStatistics(.with { $0.query = query.proto }), timeout: Self.callTimeout) { response in
            if case .adminStatistics(let result) = response { StatisticsResult(proto: result) } else { nil }
        }
    }

    /// Sets the person's source order for `type`, best first (replacing any earlier one; empty
    /// clears it). Statistics of cumulative types then merge overlapping samples of several sources
    /// by it: where a higher source has data, lower ones add nothing for that time. Sources not
    /// listed rank after the listed ones, by app id.
    public func setSourcePriority(_ appIDs: [String], for type: ObjectType) async throws(BrokerError) {
        try await connection.unary(.adminSetSourcePriority(.with { $0.type = type.identifier; $0.appIDs = appIDs }), timeout: Self.callTimeout) { response in
            if case .adminSetSourcePriority = response { () } else { nil }
        }
    }

    /// The source order set for `type`, best first (empty when none was set).
    public func sourcePriority(for type: ObjectType) async throws(BrokerError) -> [String] {
        try await connection.unary(.adminListSourcePriority(.with { $0.type = type.identifier }), timeout: Self.callTimeout) { response in
            if case .adminListSourcePriority(let order) = response { order.appIDs } else { nil }
        }
    }

    /// The access log, newest first: which app read, wrote or deleted which types, when, how many
    /// samples and through which call (`AccessLogEntry.method`); one entry per call and type.
    ///
    /// `appID` nil means every app; `limit` 0 means the broker's default (the 1000 newest). A negative
    /// `limit` is INVALID_ARGUMENT.
    public func accessLog(appID: String? = nil, limit: Int = 0) async throws(BrokerError) -> [AccessLogEntry] {
        let wireLimit = try wireCount(limit, "limit")
        // A nil app id travels as "".
        let request = Proto.AdminAccessLogRequest.with {
            $0.appID = appID ?? ""
            $0.limit = wireLimit
        }
        return try await connection.unary(.adminAccessLog(request), timeout: Self.callTimeout) { response in
            if case .adminAccessLog(let log) = response { log.entries.map(AccessLogEntry.init(proto:)) } else { nil }
        }
    }
}
