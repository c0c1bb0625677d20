import BrokerModel

/// The non-interactive agent's answer to one prompt: the policy's decisions for the prompted parts, and what it left out.
struct PolicyAnswer: Equatable, Sendable {
    /// The decisions to send: only parts the prompt asks about, one decision per type.
    var decisions: [TypeDecision]
    /// Share types no rule covers (the broker records them as denied).
    var uncoveredShare: [ObjectType]
    /// Read types no rule covers (the broker records them as denied).
    var uncoveredRead: [ObjectType]

    /// Keeps the parts of `policyDecisions` that `prompt` asks about and notes the prompted parts no rule decided.
    init(prompt: Prompt, policyDecisions: [TypeDecision]) {
        let shareTypes = Set(prompt.shareTypes), readTypes = Set(prompt.readTypes)
        var decisions: [TypeDecision] = []
        for decision in policyDecisions {
            let share = shareTypes.contains(decision.type) ? decision.share : nil
            let read = readTypes.contains(decision.type) ? decision.read : nil
            guard share != nil || read != nil else { continue }
            if let index = decisions.firstIndex(where: { $0.type == decision.type }) {
                decisions[index].share = decisions[index].share ?? share
                decisions[index].read = decisions[index].read ?? read
            } else {
                decisions.append(TypeDecision(type: decision.type, share: share, read: read))
            }
        }
        self.decisions = decisions
        uncoveredShare = prompt.shareTypes.filter { type in !decisions.contains { $0.type == type && $0.share != nil } }
        uncoveredRead = prompt.readTypes.filter { type in !decisions.contains { $0.type == type && $0.read != nil } }
    }

    /// Whether the policy left some prompted part undecided.
    var leavesSomethingOut: Bool { !uncoveredShare.isEmpty || !uncoveredRead.isEmpty }

    /// The log line for a recorded answer: `prompt 3 from demo.steps: read stepCount limited from …`.
    func answeredLine(_ prompt: Prompt) -> String {
        "prompt \(prompt.id) from \(prompt.appID) answered by the policy: \(DecisionText.summary(decisions))"
    }

    /// The line about the parts the policy does not cover, or nil when it covers them all.
    func uncoveredLine(_ prompt: Prompt) -> String? {
        guard leavesSomethingOut else { return nil }
        let pronoun = uncoveredShare.count + uncoveredRead.count == 1 ? "it" : "them"
        return "prompt \(prompt.id): the policy does not cover \(DecisionText.typeList(share: uncoveredShare, read: uncoveredRead)); "
            + "left out of the answer, so the broker records \(pronoun) as denied"
    }
}
