public import BrokerModel

/// What a save did: how many samples it stored, how many were already there unchanged, and the new ones.
public struct SaveOutcome: Sendable {
    /// Samples already stored with the same content (nothing changed).
    public let unchanged: Int
    /// The positions in the saved batch of the newly stored samples, in batch order.
    public let savedIndexes: [Int]
    /// Correlations newly stored, each with all its objects (its new members are among `savedIndexes`).
    public let newCorrelations: [Sample]
    /// How many correlations were newly stored.
    public var savedCorrelations: Int { newCorrelations.count }
    /// The batch as saved (shared, not copied).
    private let batch: [Sample]
    /// The app the batch was saved as.
    private let sourceAppID: String
    /// When it was stored.
    private let createdMicros: Int64

    /// An outcome: `savedIndexes` are positions in `batch`, stored as `sourceAppID` at `createdMicros`.
    /// `newCorrelations` are the correlations newly stored.
    public init(unchanged: Int, savedIndexes: [Int], of batch: [Sample], sourceAppID: String, createdMicros: Int64, newCorrelations: [Sample] = []) {
        self.unchanged = unchanged
        self.savedIndexes = savedIndexes
        self.newCorrelations = newCorrelations
        self.batch = batch
        self.sourceAppID = sourceAppID
        self.createdMicros = createdMicros
    }

    /// An outcome that stored nothing.
    public static let nothing = SaveOutcome(unchanged: 0, savedIndexes: [], of: [], sourceAppID: "", createdMicros: 0)

    /// Samples newly stored, a correlation counting as one beside each of its members.
    public var saved: Int { savedIndexes.count + savedCorrelations }

    /// The newly stored samples, in batch order, with `sourceAppID` and `createdMicros` set (built on each use).
    public var savedSamples: [Sample] {
        savedIndexes.map { index in
            var stored = batch[index]
            stored.sourceAppID = sourceAppID
            stored.createdMicros = createdMicros
            return stored
        }
    }

    /// The type and end date of each newly stored sample, in batch order (what observers are told about).
    public var savedTypesAndEnds: [(type: ObjectType, endMicros: Int64)] {
        savedIndexes.map { (batch[$0].type, batch[$0].endMicros) }
    }
}
