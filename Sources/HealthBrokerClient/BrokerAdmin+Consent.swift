import BrokerModel
import BrokerWire

extension BrokerAdmin {
    /// How many prompt events the broker may send ahead of the consumer.
    static let promptWindow: UInt32 = 64

    /// A consent agent's view: every pending prompt (as `.raised`), then prompts as they are raised and resolved.
    ///
    /// The stream has no deadline; it runs until the consumer stops iterating, the connection closes
    /// or the broker stops. Each iteration opens its own watch.
    public func watchPrompts() -> PromptEventStream {
        PromptEventStream(stream: connection.stream(.adminWatchPrompts(.init()), timeout: nil, window: Self.promptWindow))
    }

    /// Answers a prompt with one decision per type; a prompted type left out is recorded as denied.
    ///
    /// A type not in the prompt is INVALID_ARGUMENT; an unknown, withdrawn or already resolved prompt
    /// is NOT_FOUND, and nothing is recorded.
    public func answerPrompt(_ promptID: UInt64, decisions: [TypeDecision]) async throws(BrokerError) {
        try await connection.unary(.adminAnswerPrompt(.with { $0.promptID = promptID; $0.decisions = decisions.map(\.proto) }), timeout: Self.callTimeout) { response in
            if case .adminAnswerPrompt = response { () } else { nil }
        }
    }

    /// Cancels a prompt on the person's behalf: the waiting app gets CANCELLED with `userCanceled`.
    ///
    /// An unknown or already resolved prompt is NOT_FOUND.
    public func cancelPrompt(_ promptID: UInt64) async throws(BrokerError) {
        try await connection.unary(.adminCancelPrompt(.with { $0.promptID = promptID }), timeout: Self.callTimeout) { response in
            if case .adminCancelPrompt = response { () } else { nil }
        }
    }
}
