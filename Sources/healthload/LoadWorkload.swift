import BrokerWire
import HealthBrokerClient

/// What each operation sends, which types it touches, and the samples setup seeds for queries.
struct LoadWorkload: Sendable {
    /// The type queries read (seeded at setup).
    static let queryType = ObjectType.stepCount
    /// The type saves write.
    static let saveType = ObjectType.activeEnergyBurned
    /// The types EarliestAuthorizedSampleDate asks about.
    static let earliestDateTypes: [ObjectType] = [.stepCount, .heartRate, .activeEnergyBurned]
    /// The type AuthorizationStatus asks about.
    static let statusType = ObjectType.activeEnergyBurned
    /// The types the load apps ask to share.
    static let shareTypes: Set<ObjectType> = [.activeEnergyBurned]
    /// The types the load apps ask to read.
    static let readTypes: Set<ObjectType> = [.stepCount, .heartRate, .activeEnergyBurned]
    /// Seeded samples are one minute long, back to back.
    static let seedSpacingMicros: Int64 = 60_000_000
    /// Samples a Query page holds by default (the broker's default).
    static let queryPageSize = 512

    /// Ping payload bytes.
    let payloadBytes: Int
    /// Samples per query.
    let querySamples: Int
    /// Samples per save.
    let saveBatch: Int
    /// Deadline sent with every call (µs; 0: none).
    let callTimeoutMicros: Int64
    /// Start of the first seeded sample: whole days back, so that the seeded range ends before today.
    let seedStartMicros: Int64
    /// Where saved samples start.
    let saveStartMicros: Int64
    /// Random per run: the first uuid group of saved samples, so runs never collide.
    let runTag: UInt32
    /// The custom op's call (`--request`).
    let customRequest: CustomRequest?

    /// The workload for `options`, with dates relative to `nowMicros` (wall clock).
    init(options: LoadOptions, nowMicros: Int64, runTag: UInt32) {
        payloadBytes = options.payloadBytes
        querySamples = options.querySamples
        saveBatch = options.saveBatch
        callTimeoutMicros = options.callTimeoutMillis * 1_000
        let day: Int64 = 86_400_000_000
        let today = nowMicros / day * day
        let seedDays = (Int64(options.querySamples) * Self.seedSpacingMicros + day - 1) / day + 1
        seedStartMicros = today - seedDays * day
        saveStartMicros = nowMicros - 3_600_000_000
        self.runTag = runTag
        customRequest = options.customRequest
    }

    /// The samples seeded for app number `app` (1-based), as it saved them; the same on every run of a day.
    func seedSamples(app: Int) -> [Sample] {
        let dayTag = UInt64(seedStartMicros / 86_400_000_000)
        return (0..<querySamples).map { index in
            let start = seedStartMicros + Int64(index) * Self.seedSpacingMicros
            let uuid = "\(Self.hex(dayTag, 8))-5eed-4\(Self.hex(UInt64(app), 3))-8000-\(Self.hex(UInt64(index), 12))"
            return Sample(uuid: uuid, type: Self.queryType, startMicros: start, endMicros: start + Self.seedSpacingMicros,
                          value: .quantity(Quantity(Double(index % 100 + 1), "count")))
        }
    }

    /// The query each Query call sends: the seeded range, at most `querySamples`.
    var query: SampleQuery {
        let end = seedStartMicros + Int64(querySamples) * Self.seedSpacingMicros
        return SampleQuery(type: Self.queryType, predicate: SamplePredicate(startMicros: seedStartMicros, endMicros: end),
                           limit: UInt32(querySamples))
    }

    /// The AnchoredQuery each anchored call sends: no anchor (every sample of the query's range the
    /// app may read), at most `querySamples`.
    var anchoredQuery: AnchoredQuery {
        let query = self.query
        return AnchoredQuery(type: query.type, predicate: query.predicate, limit: query.limit)
    }

    /// Stream credit for a query: every page at once, so no Credit frames are needed.
    var queryCredit: UInt32 {
        UInt32(clamping: (querySamples + Self.queryPageSize - 1) / Self.queryPageSize + 1)
    }

    /// The uuids of one save's samples, ending in the counter digits `CallTemplate` stamps.
    var saveUUIDs: [String] {
        (0..<saveBatch).map { index in
            "\(Self.hex(UInt64(runTag), 8))-0000-4\(Self.hex(UInt64(index & 0xfff), 3))-8\(Self.hex(UInt64(index >> 12), 3))-000000000000"
        }
    }

    /// The samples of one save, before stamping.
    var saveSamples: [Sample] {
        saveUUIDs.enumerated().map { index, uuid in
            let start = saveStartMicros + Int64(index) * 1_000
            return Sample(uuid: uuid, type: Self.saveType, startMicros: start, endMicros: start + 1_000,
                          value: .quantity(Quantity(1.5, "kcal")))
        }
    }

    /// The first save counter of connection `index`: its number in the top bits of the 48-bit counter.
    static func saveCounterBase(connection index: Int) -> UInt64 {
        UInt64(index & 0xfff) << 36
    }

    /// One template per operation in `mix`, by operation index.
    func templates(for mix: OperationMix) throws(LoadFailure) -> [CallTemplate?] {
        var templates = [CallTemplate?](repeating: nil, count: LoadOperation.allCases.count)
        for operation in mix.operations {
            templates[operation.index] = try template(for: operation)
        }
        return templates
    }

    /// The template for one operation.
    func template(for operation: LoadOperation) throws(LoadFailure) -> CallTemplate {
        switch operation {
        case .ping:
            let payload = (0..<payloadBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            return try CallTemplate(operation: .ping, request: .ping(PingRequest(payload: payload).proto), timeoutMicros: callTimeoutMicros)
        case .easd:
            return try CallTemplate(operation: .easd, request: .earliestAuthorizedSampleDate(.with { $0.types = Self.earliestDateTypes.map(\.identifier) }), timeoutMicros: callTimeoutMicros)
        case .status:
            return try CallTemplate(operation: .status, request: .authorizationStatus(.with { $0.type = Self.statusType.identifier }), timeoutMicros: callTimeoutMicros)
        case .query:
            return try CallTemplate(operation: .query, request: .query(query.proto), timeoutMicros: callTimeoutMicros, initialCredit: queryCredit)
        case .anchored:
            return try CallTemplate(operation: .anchored, request: .anchoredQuery(anchoredQuery.proto), timeoutMicros: callTimeoutMicros, initialCredit: queryCredit)
        case .save:
            return try CallTemplate(operation: .save, request: .save(.with { $0.samples = saveSamples.map(\.proto) }), timeoutMicros: callTimeoutMicros, uuids: saveUUIDs)
        case .custom:
            guard let custom = customRequest else { throw LoadFailure("the custom op needs --request METHOD=JSON") }
            return try CallTemplate(operation: .custom, request: custom.request, timeoutMicros: callTimeoutMicros)
        case .reqstatus:
            return try CallTemplate(
                operation: .reqstatus,
                request: .requestStatus(.with {
                    $0.shareTypes = Self.shareTypes.map(\.identifier)
                    $0.readTypes = Self.readTypes.map(\.identifier)
                }),
                timeoutMicros: callTimeoutMicros)
        }
    }

    /// `value` as `digits` lower-case hex digits (the low ones).
    static func hex(_ value: UInt64, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        if text.count >= digits { return String(text.suffix(digits)) }
        return String(repeating: "0", count: digits - text.count) + text
    }
}
