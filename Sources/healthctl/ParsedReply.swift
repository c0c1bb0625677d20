/// What one typed line said in answer to a consent question.
enum ParsedReply<Value: Equatable & Sendable>: Equatable, Sendable {
    /// A decision for the type asked about.
    case decided(Value)
    /// The person wants to cancel the whole prompt.
    case cancel
    /// Nothing was typed: ask the same question again.
    case empty
    /// The line could not be understood; the text says why and what to type.
    case invalid(String)
}
