import BrokerModel

/// One RequestAuthorization call on its way through the app's queue, the policy and the person.
///
/// Loop thread only.
final class AuthorizationRequest {
    /// Where the request is.
    enum State {
        /// Waiting behind another request of the same app.
        case queued
        /// Being evaluated (policy decisions may be committing).
        case evaluating
        /// Its prompt is out; `prompt` is set.
        case prompting
        /// An answer is being committed.
        case committing
        /// Ended (answered, cancelled, withdrawn, failed).
        case finished
    }

    let appID: String
    let share: [ObjectType]
    let read: [ObjectType]
    let context: CallContext
    var state = State.queued
    var prompt: Prompt?

    init(appID: String, share: [ObjectType], read: [ObjectType], context: CallContext) {
        self.appID = appID
        self.share = share
        self.read = read
        self.context = context
    }
}

/// One app's authorization requests: at most one active (evaluated or prompting), the rest in order.
final class RequestQueue {
    var active: AuthorizationRequest?
    var waiting: [AuthorizationRequest] = []

    var isEmpty: Bool { active == nil && waiting.isEmpty }
}
