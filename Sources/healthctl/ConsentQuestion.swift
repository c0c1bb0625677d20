import BrokerModel

/// One question the interactive agent asks: the share part or the read part of one type.
enum ConsentQuestion: Equatable, Sendable {
    /// May the app write this type?
    case share(ObjectType)
    /// May the app read this type, and from when?
    case read(ObjectType)

    /// The questions for a prompt: every share type, then every read type, in the prompt's order.
    static func all(for prompt: Prompt) -> [ConsentQuestion] {
        prompt.shareTypes.map(ConsentQuestion.share) + prompt.readTypes.map(ConsentQuestion.read)
    }
}
