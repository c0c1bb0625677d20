import BrokerCore

/// A batch to save as one app (`BrokerStore.saveSampleGroups`).
public struct SaveRequest: Sendable {
    /// The validated, canonical samples.
    public var samples: [Sample]
    /// The app they are saved as.
    public var sourceAppID: String

    /// A batch of `samples` saved as `sourceAppID`.
    public init(samples: [Sample], sourceAppID: String) {
        self.samples = samples
        self.sourceAppID = sourceAppID
    }
}
