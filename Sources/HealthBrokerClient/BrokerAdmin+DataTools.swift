import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// Imports `samples` as if the app `appID` had saved them (the person's own data: no share check).
    ///
    /// All or nothing, with the same validation and idempotence as `HealthStore.save`: an invalid
    /// sample is INVALID_ARGUMENT naming its index, and nothing of the batch is stored.
    public func importSamples(_ samples: [Sample], as appID: String) async throws(BrokerError) -> SaveResult {
        try await connection.unary(.adminImport(appID: appID, samples: samples), timeout: Self.callTimeout) { response in
            if case .adminImport(let saved, let unchanged) = response { SaveResult(saved: Int(saved), unchanged: Int(unchanged)) } else { nil }
        }
    }

    /// Has the broker write a consistent copy of its whole store to the new file `path`, which must
    /// be absolute (the broker resolves it, not this process) and not exist yet (ALREADY_EXISTS).
    ///
    /// No deadline: a large store takes as long as its pages take to copy.
    public func backup(to path: String) async throws(BrokerError) -> (path: String, bytes: Int64, pages: Int64) {
        try await connection.unary(.adminBackup(path: path), timeout: nil) { response in
            if case .adminBackup(let path, let bytes, let pages) = response { (path, bytes, pages) } else { nil }
        }
    }

    /// Every stored sample (of `type`, saved by `appID`, when given), streamed in pages under flow control.
    ///
    /// The stream has no deadline; leaving the loop early cancels it.
    public func exportSamples(type: ObjectType? = nil, appID: String? = nil) -> SampleSequence {
        let request = Request.adminExport(type: type, appID: appID.flatMap { $0.isEmpty ? nil : $0 })
        return SampleSequence(stream: connection.stream(request, timeout: nil, window: SampleSequence.pageWindow))
    }

    /// The access log, newest first: which app read, wrote or deleted which types, when, and how many samples.
    ///
    /// `appID` nil means every app; `limit` 0 means the broker's default (the 1000 newest). A negative
    /// `limit` is INVALID_ARGUMENT.
    public func accessLog(appID: String? = nil, limit: Int = 0) async throws(BrokerError) -> [AccessLogEntry] {
        let request = Request.adminAccessLog(appID: appID.flatMap { $0.isEmpty ? nil : $0 }, limit: try wireCount(limit, "limit"))
        return try await connection.unary(request, timeout: Self.callTimeout) { response in
            if case .adminAccessLog(let entries) = response { entries } else { nil }
        }
    }
}
