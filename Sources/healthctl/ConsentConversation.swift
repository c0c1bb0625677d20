import BrokerModel

/// The interactive consent agent as a pure state machine: prompt events and typed lines in, effects out.
///
/// Prompts are asked one at a time, in the order they arrive; each asks about every share type,
/// then every read type. A prompt resolved elsewhere while it waits or is being asked is dropped
/// with a note. After an answer or a cancel the caller reports the broker's outcome with `sent(_:)`.
struct ConsentConversation {
    /// The prompt being asked about, and the answers so far.
    private struct Asking {
        /// The prompt.
        var prompt: Prompt
        /// Its questions, in the order asked.
        var questions: [ConsentQuestion]
        /// The question being asked.
        var index = 0
        /// The answers so far, one decision per type.
        var decisions: [TypeDecision] = []

        /// Adds a part to the type's decision (a type asked both to share and to read gets one decision).
        mutating func record(_ part: TypeDecision) {
            if let index = decisions.firstIndex(where: { $0.type == part.type }) {
                decisions[index].share = part.share ?? decisions[index].share
                decisions[index].read = part.read ?? decisions[index].read
            } else {
                decisions.append(part)
            }
        }
    }

    /// An answer or cancel handed to the broker and not yet reported back.
    private struct Sending {
        /// The prompt answered or cancelled.
        var promptID: UInt64
        /// The answer sent; nil for a cancel.
        var decisions: [TypeDecision]?
    }

    /// Whether to finish after the first prompt the person answered or cancelled.
    let once: Bool
    /// Prompts waiting their turn, oldest first.
    private(set) var queue: [Prompt] = []
    private var asking: Asking?
    private var sending: Sending?
    /// Prompts this agent resolved: their resolved events are not echoed.
    private var resolvedHere: Set<UInt64> = []
    /// Whether the broker is away and the agent is reconnecting.
    private(set) var disconnectedNow = false

    /// The line shown while no prompt is waiting.
    static let waitingLine = "waiting for prompts (end input with Ctrl-D, or stop with Ctrl-C)…"
    /// The hint shown under each prompt's introduction.
    static let cancelHint = "  answer each question, or type 'cancel' to cancel the whole prompt"

    /// Creates a conversation; with `once` it finishes after the first prompt answered or cancelled here.
    init(once: Bool = false) {
        self.once = once
    }

    /// The id of the prompt being asked about, if any.
    var currentPromptID: UInt64? { asking?.prompt.id }

    /// The greeting.
    func start() -> [ConsentEffect] {
        [.say(Self.waitingLine)]
    }

    /// A prompt event from the broker's watch.
    mutating func receive(_ event: PromptEvent) -> [ConsentEffect] {
        switch event {
        case .raised(let prompt):
            if prompt.id == asking?.prompt.id || prompt.id == sending?.promptID || queue.contains(where: { $0.id == prompt.id }) {
                return []
            }
            if asking == nil && sending == nil { return begin(prompt) }
            queue.append(prompt)
            guard let asking else { return [] }
            let waits = prompt.deadlineMicros > 0 ? "is waiting, answer by \(PromptText.deadline(prompt))" : "is waiting"
            let note = "(prompt \(prompt.id) from \(prompt.appID) \(waits); it comes after this one)"
            return [.say(""), .say(note), .ask(PromptText.question(asking.questions[asking.index]))]
        case .resolved(let id, let resolution):
            if resolvedHere.remove(id) != nil || id == sending?.promptID { return [] }
            let line = PromptText.resolved(id, resolution)
            if id == asking?.prompt.id {
                // The person may be half-way through its questions: drop them at once, not at the next line typed.
                asking = nil
                return [.say(""), .say(line), .say("  this request was answered elsewhere or withdrawn; its questions are dropped")] + advance()
            }
            queue.removeAll { $0.id == id }
            return [.say(line)]
        }
    }

    /// The broker went away: forget every prompt (the new watch streams the pending ones again).
    mutating func disconnected() -> [ConsentEffect] {
        let interrupted = asking != nil || sending != nil
        asking = nil
        sending = nil
        queue = []
        resolvedHere = []
        guard !disconnectedNow else { return [] }
        disconnectedNow = true
        return (interrupted ? [.say("")] : []) + [.say("broker gone; reconnecting…")]
    }

    /// A new connection to the broker is watching prompts.
    mutating func reconnected() -> [ConsentEffect] {
        disconnectedNow = false
        return [.say("reconnected"), .say(Self.waitingLine)]
    }

    /// A line the person typed; `now` (µs since the epoch) anchors `last N days`.
    mutating func receive(line: String, now: Int64) -> [ConsentEffect] {
        guard sending == nil else { return [] }
        guard var current = asking else {
            if line.allSatisfy(\.isWhitespace) { return [] }
            return [.say(disconnectedNow ? "the broker is gone; still reconnecting…" : "no prompt is waiting for an answer")]
        }
        let question = current.questions[current.index]
        let ask = ConsentEffect.ask(PromptText.question(question))
        let words = line.lowercased().split(whereSeparator: \.isWhitespace)
        if words == ["?"] || words == ["help"] {
            return PromptText.help().map(ConsentEffect.say) + [ask]
        }
        if words == ["allow", "all"] || words == ["deny", "all"] {
            let allow = words[0] == "allow"
            for remaining in current.questions[current.index...] {
                switch remaining {
                case .share(let type): current.record(TypeDecision(type: type, share: allow ? .allow : .deny))
                case .read(let type): current.record(TypeDecision(type: type, read: allow ? .full : .deny))
                }
            }
            return finishAsking(current)
        }
        switch question {
        case .read(let type) where !PlainTypeName.isSample(type):
            switch AnswerParser.readCharacteristic(line, name: PlainTypeName.of(type)) {
            case .empty: return [ask]
            case .invalid(let why): return [.say("  " + why), ask]
            case .cancel: return cancel(current.prompt.id)
            case .decided(let decision): current.record(TypeDecision(type: type, read: decision))
            }
        case .share(let type):
            switch AnswerParser.share(line) {
            case .empty: return [ask]
            case .invalid(let why): return [.say("  " + why), ask]
            case .cancel: return cancel(current.prompt.id)
            case .decided(let decision): current.record(TypeDecision(type: type, share: decision))
            }
        case .read(let type):
            switch AnswerParser.read(line, now: now) {
            case .empty: return [ask]
            case .invalid(let why): return [.say("  " + why), ask]
            case .cancel: return cancel(current.prompt.id)
            case .decided(let decision): current.record(TypeDecision(type: type, read: decision))
            }
        }
        current.index += 1
        if current.index < current.questions.count {
            asking = current
            return [.ask(PromptText.question(current.questions[current.index]))]
        }
        return finishAsking(current)
    }

    /// Standard input ended: stop, leaving an unfinished prompt pending for another agent.
    mutating func endOfInput() -> [ConsentEffect] {
        guard let current = asking else { return [.finish] }
        asking = nil
        return [.say(""), .say("input ended; prompt \(current.prompt.id) stays pending for another agent"), .finish]
    }

    /// The broker's outcome for the answer or cancel last handed out.
    mutating func sent(_ outcome: SendOutcome) -> [ConsentEffect] {
        guard let done = sending else { return [] }
        sending = nil
        let id = done.promptID
        switch outcome {
        case .done:
            resolvedHere.insert(id)
            let line = done.decisions.map { "answered prompt \(id): \(DecisionText.summary($0, instant: LocalTime.dateOrInstant))" }
                ?? "cancelled prompt \(id): the app is told the person cancelled"
            return [.say(line)] + (once ? [.finish] : advance())
        case .alreadyResolved:
            return [.say(PromptText.alreadyResolved(id))] + advance()
        case .failed(let why):
            return [.say("could not answer prompt \(id): \(why)")] + advance()
        }
    }

    /// Starts asking about `prompt`.
    private mutating func begin(_ prompt: Prompt) -> [ConsentEffect] {
        let current = Asking(prompt: prompt, questions: ConsentQuestion.all(for: prompt))
        let introduction = PromptText.introduction(prompt).map(ConsentEffect.say) + [.say(Self.cancelHint)]
        guard let first = current.questions.first else { return introduction + finishAsking(current) }
        asking = current
        return introduction + [.ask(PromptText.question(first))]
    }

    /// Every question answered: hand the answer out.
    private mutating func finishAsking(_ current: Asking) -> [ConsentEffect] {
        asking = nil
        sending = Sending(promptID: current.prompt.id, decisions: current.decisions)
        return [.answer(promptID: current.prompt.id, decisions: current.decisions)]
    }

    private mutating func cancel(_ id: UInt64) -> [ConsentEffect] {
        asking = nil
        sending = Sending(promptID: id, decisions: nil)
        return [.cancel(promptID: id)]
    }

    /// The next queued prompt, or the waiting line.
    private mutating func advance() -> [ConsentEffect] {
        guard !queue.isEmpty else { return [.say(Self.waitingLine)] }
        return begin(queue.removeFirst())
    }
}
