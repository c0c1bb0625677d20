import BrokerModel

/// A consent agent's open AdminWatchPrompts stream and the events it has not been sent yet.
///
/// Loop thread only. Events wait in `backlog` until the agent grants credit.
final class ConsentAgent {
    /// Events an agent may leave unread before the broker ends its stream.
    static let maxBacklog = 10_000

    let context: CallContext
    var backlog: [PromptEvent] = []

    init(context: CallContext) {
        self.context = context
    }
}
