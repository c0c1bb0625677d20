import BrokerModel
import BrokerSupport
import HealthBrokerClient

/// The terminal side of `healthctl consent`: feeds prompt events and typed lines to a `ConsentConversation` and carries out its effects.
struct InteractiveAgent {
    /// Whether to stop after the first prompt answered or cancelled.
    let once: Bool
    /// Whether to print each line read (when standard input is not a terminal, so logs read naturally).
    let echoInput: Bool

    /// Watches prompts on `admin` and converses until input ends, `--once` is done or the watch ends.
    func run(_ admin: BrokerAdmin) async throws(BrokerError) -> ConsentCommand.Ending {
        var conversation = ConsentConversation(once: once)
        if try await carryOut(conversation.start(), conversation: &conversation, admin: admin) {
            return .finished
        }
        for await input in AgentInput.merged(prompts: admin.watchPrompts()) {
            let effects: [ConsentEffect]
            switch input {
            case .event(let event):
                effects = conversation.receive(event)
            case .line(let line):
                if echoInput { Console.output(line) }
                effects = conversation.receive(line: line, now: Microseconds.now())
            case .endOfInput:
                effects = conversation.endOfInput()
            case .watchEnded(let error?):
                throw error
            case .watchEnded(nil):
                return .watchClosed
            }
            if try await carryOut(effects, conversation: &conversation, admin: admin) { return .finished }
        }
        return .finished
    }

    /// Prints, answers and cancels as told, feeding each send's outcome back; true once told to finish.
    private func carryOut(_ effects: [ConsentEffect], conversation: inout ConsentConversation, admin: BrokerAdmin) async throws(BrokerError) -> Bool {
        var effects = effects
        while !effects.isEmpty {
            switch effects.removeFirst() {
            case .say(let text):
                Console.output(text)
            case .ask(let text):
                Console.ask(text)
            case .answer(let id, let decisions):
                effects += conversation.sent(try await send { () async throws(BrokerError) in
                    try await admin.answerPrompt(id, decisions: decisions)
                })
            case .cancel(let id):
                effects += conversation.sent(try await send { () async throws(BrokerError) in
                    try await admin.cancelPrompt(id)
                })
            case .finish:
                return true
            }
        }
        return false
    }

    /// Runs an answer or cancel call: NOT_FOUND means the prompt is gone; a lost broker ends the agent.
    private func send(_ call: () async throws(BrokerError) -> Void) async throws(BrokerError) -> SendOutcome {
        do {
            try await call()
            return .done
        } catch where error.code == .notFound {
            return .alreadyResolved
        } catch where error.code == .unavailable {
            throw error
        } catch {
            return .failed(error.description)
        }
    }
}
