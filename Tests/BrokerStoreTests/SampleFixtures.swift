import BrokerModel
import BrokerPolicy
import BrokerStore

/// Shared values and builders for the sample-store tests.
enum Fixture {
    /// One microsecond-based hour.
    static let hour: Int64 = 3_600_000_000
    /// One minute.
    static let minute: Int64 = 60_000_000
    /// A fixed instant: 2023-11-14T22:13:20Z.
    static let base: Int64 = 1_700_000_000_000_000
    /// The app most tests write as.
    static let app = "com.example.writer"
    /// Another app.
    static let other = "com.example.other"

    /// A canonical-looking uuid numbered `n`.
    static func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    /// A step-count sample numbered `n` over [start, end].
    static func steps(_ n: Int, _ start: Int64, _ end: Int64, count: Double = 10, metadata: [String: String] = [:]) -> Sample {
        Sample(uuid: uuid(n), type: .stepCount, startMicros: start, endMicros: end,
               value: .quantity(Quantity(count, "count")), metadata: metadata)
    }

    /// `sample` as the store returns it once `appID` saved it at `now`.
    static func stored(_ sample: Sample, by appID: String, at now: Int64) -> Sample {
        var stored = sample
        stored.sourceAppID = appID
        stored.createdMicros = now
        return stored
    }

    /// Every sample of `type` readable under `scope` and matching `predicate`, page by page (default order: start ascending).
    static func readAll(_ store: BrokerStore, type: ObjectType = .stepCount, predicate: SamplePredicate = .all, scope: ReadScope = .from(.min), appID: String = app, sort: SampleSort = SampleSort(), pageSize: Int = 1_000) throws -> [Sample] {
        var samples: [Sample] = []
        var cursor: SampleCursor?
        repeat {
            let page = try store.samplePage(SamplePageRequest(
                type: type, predicate: predicate, scope: scope, appID: appID, sort: sort, pageSize: pageSize, after: cursor))
            samples += page.samples
            cursor = page.next
        } while cursor != nil
        return samples
    }

    /// Runs `body` with a fresh store in a temporary directory, closing and removing both afterwards.
    static func withStore<T>(_ body: (BrokerStore, TemporaryDirectory) throws -> T) throws -> T {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        return try body(store, directory)
    }
}
