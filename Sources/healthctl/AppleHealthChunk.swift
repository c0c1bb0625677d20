/// What the parser hands the importer: a batch of samples, and the sources seen for the first time in it.
struct AppleHealthChunk: Sendable {
    /// Samples, each with its `sourceAppID` set.
    var batch: ImportBatch
    /// Sources first seen in this batch: the app id they go in as, and the source's name.
    var newSources: [AppleHealthSourceName] = []
}

/// One source of an export: its derived app id and its `sourceName`.
struct AppleHealthSourceName: Sendable, Equatable {
    /// The app id the source's samples are imported as.
    var appID: String
    /// The `sourceName` the export gives.
    var name: String
}
