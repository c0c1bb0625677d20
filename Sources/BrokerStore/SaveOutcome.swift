import BrokerCore

/// What a save did: how many samples it stored, how many were already there unchanged, and the new ones.
public struct SaveOutcome: Sendable {
    /// Samples newly stored.
    public var saved: Int
    /// Samples already stored with the same content (nothing changed).
    public var unchanged: Int
    /// The newly stored samples, in batch order, with `sourceAppID` and `createdMicros` set.
    public var savedSamples: [Sample]

    /// Creates an outcome.
    public init(saved: Int, unchanged: Int, savedSamples: [Sample]) {
        self.saved = saved
        self.unchanged = unchanged
        self.savedSamples = savedSamples
    }
}
