public import BrokerModel

/// A batch to save as one app (`BrokerStore.saveSampleGroups`).
///
/// Making one computes each sample's stored columns (value fields, metadata text), so a broker that
/// builds its requests on one thread and saves them on another spends that time off the writing
/// thread. The broker builds them on its loop: CPU work, about 1 µs a sample, no I/O.
public struct SaveRequest: Sendable {
    /// The validated, canonical samples.
    public let samples: [Sample]
    /// The app they are saved as.
    public let sourceAppID: String
    /// The call that saves them, for the access log ("Save", "AdminImport").
    public let method: String
    /// The import these samples are a chunk of ("" for none): its chunks share one access-log row per type.
    public let batchID: String
    /// Each sample's stored content, or the error naming the first sample the store cannot keep.
    let contents: Result<[SampleContent], BrokerError>

    /// A batch of `samples` saved as `sourceAppID` by the call `method`, part of import `batchID` when not empty.
    public init(samples: [Sample], sourceAppID: String, method: String = "Save", batchID: String = "") {
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
