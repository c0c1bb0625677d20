/// What the parser hands the importer: a batch of samples, and the sources seen for the first time in it.
struct AppleHealthChunk: Sendable {
    /// One source's samples: the batch's `sourceAppID` is the source's app id (the samples name none).
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
