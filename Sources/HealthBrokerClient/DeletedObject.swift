/// A sample deleted since an anchor, named by its identity (source app, uuid), as `HKDeletedObject`.
///
/// Two apps may each store a sample with the same uuid, so the uuid alone does not say which one
/// went: compare both fields against what was read before.
public struct DeletedObject: Sendable, Hashable {
    /// The deleted sample's uuid.
    public var uuid: String
    /// The bundle id of the app that stored the deleted sample (as `Sample.sourceAppID`); empty when
    /// the broker did not say (one from before source app ids were sent with deletions).
    public var sourceAppID: String

    /// Creates a deleted object.
    public init(uuid: String, sourceAppID: String) {
        self.uuid = uuid
        self.sourceAppID = sourceAppID
    }
}
