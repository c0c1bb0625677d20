import BrokerModel
import BrokerPolicy
import BrokerSupport
import HealthBrokerClient

/// The non-interactive side of `healthctl consent --policy FILE`: answers every prompt by the policy, one log line each.
struct PolicyAgent {
    /// The rules.
    let policy: ConsentPolicy
    /// Whether to stop after the first prompt answered.
    let once: Bool

    /// Watches prompts on `admin` and answers each until interrupted, `--once` is done or the watch ends.
    func run(_ admin: BrokerAdmin) async throws(BrokerError) -> ConsentCommand.Ending {
        log("answering prompts by the policy (stop with Ctrl-C)")
        var answeredHere: Set<UInt64> = []
        var events = admin.watchPrompts().makeAsyncIterator()
        while let event = try await events.next() {
            switch event {
            case .raised(let prompt):
                let decisions = policy.decide(appID: prompt.appID, share: prompt.shareTypes, read: prompt.readTypes, now: Microseconds.now())
                let answer = PolicyAnswer(prompt: prompt, policyDecisions: decisions)
                do {
                    try await admin.answerPrompt(prompt.id, decisions: answer.decisions)
                } catch where error.code == .notFound {
                    log(PromptText.alreadyResolved(prompt.id))
                    continue
                } catch where error.code == .unavailable {
                    throw error
                } catch {
                    log("could not answer prompt \(prompt.id) from \(prompt.appID): \(error)")
                    continue
                }
                answeredHere.insert(prompt.id)
                log(answer.answeredLine(prompt))
                if let line = answer.uncoveredLine(prompt) { log(line) }
                if once { return .finished }
            case .resolved(let id, let resolution):
                if answeredHere.remove(id) == nil { log(PromptText.resolved(id, resolution)) }
            }
        }
        return .watchClosed
    }

    /// One log line, stamped with the UTC time.
    private func log(_ line: String) {
        Console.output("\(UTCTimestamp.string(micros: Microseconds.now())) \(line)")
    }
}
