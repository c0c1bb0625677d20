import BrokerModel
import BrokerSupport
import HealthBrokerClient

/// The terminal side of `healthctl consent`: feeds prompt events and typed lines to a `ConsentConversation` and carries out its effects.
///
/// When the broker goes away (its watch closes, or a call finds it unavailable) the agent says so
/// once and reconnects with backoff (0.5 s doubling to 10 s); the new watch streams the pending
/// prompts first, so the backlog shows again.
struct InteractiveAgent {
    /// Whether to stop after the first prompt answered or cancelled.
    let once: Bool
    /// Whether to print each line read (when standard input is not a terminal, so logs read naturally).
    let echoInput: Bool
    /// Seconds before the first reconnection attempt; doubled after each failure.
    var initialDelay = 0.5
    /// The longest wait between reconnection attempts, in seconds.
    var maxDelay = 10.0

    /// Why a batch of effects stopped early.
    private enum Stop {
        /// The agent is done.
        case finish
        /// A call found the broker gone.
        case brokerGone
    }

    /// Converses on `first` (and on reconnections made with `connect`) until input ends or `--once` is done.
    func run(_ first: BrokerAdmin, connect: @escaping @Sendable () async throws(BrokerError) -> BrokerAdmin) async throws(BrokerError) -> ConsentCommand.Ending {
        var conversation = ConsentConversation(once: once)
        var admin: BrokerAdmin? = first
        var watchNumber = 0
        let (inputs, continuation) = AsyncStream<AgentInput>.makeStream()
        var watch = AgentInput.forward(first.watchPrompts(), watch: watchNumber, into: continuation)
        var reconnecting: Task<Void, Never>?
        defer {
            watch.cancel()
            reconnecting?.cancel()
            if let admin, admin !== first { admin.close() }
        }
        AgentInput.readLines(into: continuation)

        /// Forgets the lost connection and starts reconnecting.
        func lose() -> [ConsentEffect] {
            watch.cancel()
            if let lost = admin, lost !== first { lost.close() }
            admin = nil
            watchNumber += 1
            reconnecting = AgentInput.reconnect(into: continuation, initialDelay: initialDelay, maxDelay: maxDelay, connect: connect)
            return conversation.disconnected()
        }

        var pending = conversation.start()
        var inputIterator = inputs.makeAsyncIterator()
        while true {
            switch await carryOut(pending, conversation: &conversation, admin: admin) {
            case .finish?: return .finished
            case .brokerGone?:
                pending = lose()
                continue
            case nil: break
            }
            guard let input = await inputIterator.next() else { return .finished }
            switch input {
            case .event(let event, let number):
                pending = number == watchNumber ? conversation.receive(event) : []
            case .line(let line):
                if echoInput { Console.output(line) }
                pending = conversation.receive(line: line, now: Microseconds.now())
            case .endOfInput:
                pending = conversation.endOfInput()
            case .watchEnded(let error, let number):
                guard number == watchNumber, admin != nil else { pending = []; continue }
                if let error, error.code != .unavailable { throw error }
                pending = lose()
            case .connected(let fresh):
                admin = fresh
                reconnecting = nil
                watch = AgentInput.forward(fresh.watchPrompts(), watch: watchNumber, into: continuation)
                pending = conversation.reconnected()
            }
        }
    }

    /// Prints, answers and cancels as told, feeding each send's outcome back; says why it stopped early, if it did.
    private func carryOut(_ effects: [ConsentEffect], conversation: inout ConsentConversation, admin: BrokerAdmin?) async -> Stop? {
        var effects = effects
        while !effects.isEmpty {
            switch effects.removeFirst() {
            case .say(let text):
                Console.output(text)
            case .ask(let text):
                Console.ask(text)
            case .answer(let id, let decisions):
                guard let admin else { return .brokerGone }
                guard let outcome = await send({ () async throws(BrokerError) in
                    try await admin.answerPrompt(id, decisions: decisions)
                }) else { return .brokerGone }
                effects += conversation.sent(outcome)
            case .cancel(let id):
                guard let admin else { return .brokerGone }
                guard let outcome = await send({ () async throws(BrokerError) in
                    try await admin.cancelPrompt(id)
                }) else { return .brokerGone }
                effects += conversation.sent(outcome)
            case .finish:
                return .finish
            }
        }
        return nil
    }

    /// Runs an answer or cancel call: NOT_FOUND means the prompt is gone; nil when the broker is gone.
    private func send(_ call: () async throws(BrokerError) -> Void) async -> SendOutcome? {
        do {
            try await call()
            return .done
        } catch where error.code == .notFound {
            return .alreadyResolved
        } catch where error.code == .unavailable {
            return nil
        } catch {
            return .failed(error.description)
        }
    }
}
