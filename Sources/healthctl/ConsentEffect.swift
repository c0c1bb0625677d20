import BrokerModel

/// What the interactive consent agent should do next, as decided by `ConsentConversation`.
enum ConsentEffect: Equatable, Sendable {
    /// Print a line.
    case say(String)
    /// Print a question and leave the cursor after it.
    case ask(String)
    /// Send this answer to the broker, then report the outcome with `ConsentConversation.sent(_:)`.
    case answer(promptID: UInt64, decisions: [TypeDecision])
    /// Cancel the prompt on the person's behalf, then report the outcome with `sent(_:)`.
    case cancel(promptID: UInt64)
    /// Stop the agent (input ended, or `--once` is done).
    case finish
}
