/// How the broker took an answer or a cancel the consent agent sent.
enum SendOutcome: Equatable, Sendable {
    /// Recorded.
    case done
    /// NOT_FOUND: the prompt was already answered, cancelled or withdrawn; nothing was recorded.
    case alreadyResolved
    /// Refused for another reason (the text says why); the agent moves on.
    case failed(String)
}
