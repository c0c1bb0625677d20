import BrokerModel

/// An app's open Observe stream: the types it watches and the changes not yet sent.
///
/// Loop thread only. Pending changes are a set of types, so a stalled observer costs at most one
/// entry per watched type however many changes happen.
final class SampleObserver {
    let context: CallContext
    let appID: String
    let types: Set<ObjectType>
    /// Types changed since the last notification, with the latest change time.
    var pending: [ObjectType: Int64] = [:]

    init(context: CallContext, appID: String, types: Set<ObjectType>) {
        self.context = context
        self.appID = appID
        self.types = types
    }
}
