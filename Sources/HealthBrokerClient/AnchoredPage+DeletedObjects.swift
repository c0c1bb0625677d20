import BrokerModel

extension AnchoredPage {
    /// The page's deletions, each uuid paired with the source app id at the same index.
    ///
    /// The two lists are meant to be parallel, but a page where they are not still decodes (a broker
    /// from before source app ids sends none): a uuid without a source app id gets "", and source app
    /// ids past the last uuid are dropped, since they name no deletion. Pairing is per page, so one
    /// short page cannot shift the pairs of the pages after it.
    var deletedObjects: [DeletedObject] {
        let sourceAppIDs = deletedSourceAppIDs
        return deletedUUIDs.indices.map { index in
            DeletedObject(
                uuid: deletedUUIDs[index], sourceAppID: index < sourceAppIDs.count ? sourceAppIDs[index] : "")
        }
    }
}
