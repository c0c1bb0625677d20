public import BrokerModel

/// A batch to save as one app (`BrokerStore.saveSampleGroups`).
///
/// Making one computes each sample's stored columns (value fields, metadata text), so a broker that
/// builds its requests on one thread and saves them on another spends that time off the writing
/// thread. The broker builds them on its loop: CPU work, about 1 µs a sample, no I/O.
public struct SaveRequest: Sendable {
    /// The validated, canonical samples, with each correlation's members in its place.
    public let samples: [Sample]
    /// The app they are saved as.
    public let sourceAppID: String
    /// The call that saves them, for the access log ("Save", "AdminImport").
    public let method: String
    /// The import these samples are a chunk of ("" for none): its chunks share one access-log row per type.
    public let batchID: String
    /// Each sample's stored content, or the error naming the first sample the store cannot keep.
    let contents: Result<[SampleContent], BrokerError>

    /// The batch's correlations, each with its position in the batch as given; their members are in `samples`.
    let correlations: [PendingCorrelation]

    /// A correlation of a batch: saved after its members, which are rows of `samples` of their own.
    struct PendingCorrelation {
        /// The correlation's position in the batch as the caller gave it (for "samples[i]" in errors).
        let index: Int
        /// The correlation (its value holds its members).
        let sample: Sample
        /// Its members' uuids, in the order given.
        let memberUUIDs: [String]
        /// Its members' positions in `samples` (the flattened batch), in the same order.
        let memberPositions: [Int]
    }

    /// A batch of `samples` saved as `sourceAppID` by the call `method`, part of import `batchID` when not empty.
    ///
    /// A correlation in the batch is kept apart: its members take its place among the samples (each
    /// a sample of its own type), and the correlation is saved after them, linking them.
    public init(samples: [Sample], sourceAppID: String, method: String = "Save", batchID: String = "") {
        var flat = samples
        var correlations: [PendingCorrelation] = []
        if samples.contains(where: { if case .correlation = $0.value { true } else { false } }) {
            flat = []
            for (index, sample) in samples.enumerated() {
                guard case .correlation(let members) = sample.value else {
                    flat.append(sample)
                    continue
                }
                let first = flat.count
                flat.append(contentsOf: members)
                correlations.append(PendingCorrelation(
                    index: index, sample: sample, memberUUIDs: members.map(\.uuid), memberPositions: Array(first..<flat.count)))
            }
        }
        self.correlations = correlations
        let samples = flat
        self.samples = samples
        self.sourceAppID = sourceAppID
        self.method = method
        self.batchID = batchID
        contents = Result { () throws(BrokerError) in try Self.contents(of: samples, sourceAppID: sourceAppID) }
    }

    /// The stored content of every sample; an empty uuid, a start after the end or a value the
    /// store cannot keep exactly is `INVALID_ARGUMENT` naming "samples[i]".
    private static func contents(of samples: [Sample], sourceAppID: String) throws(BrokerError) -> [SampleContent] {
        var contents: [SampleContent] = []
        contents.reserveCapacity(samples.count)
        for (index, sample) in samples.enumerated() {
            do throws(BrokerError) {
                if sample.uuid.isEmpty { throw .invalidArgument("uuid is empty") }
                if sample.startMicros > sample.endMicros { throw .invalidArgument("start is after end") }
                contents.append(try SampleContent(sample, sourceAppID: sourceAppID))
            } catch {
                throw BrokerError(code: error.code, domain: error.domain, message: "samples[\(index)]: \(error.message)")
            }
        }
        return contents
    }
}
