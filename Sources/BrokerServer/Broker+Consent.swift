import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerWire

extension Broker {
    /// Opens a consent agent's stream: every open prompt first, then events as they happen.
    func handleWatchPrompts(context: CallContext) {
        let agent = ConsentAgent(context: context)
        let key = ObjectIdentifier(context)
        agents[key] = agent
        agent.backlog = openPrompts.values.compactMap(\.prompt).sorted { $0.id < $1.id }.map { .raised($0) }
        context.pump = { [weak self, weak agent] in
            guard let self, let agent else { return }
            self.pump(agent)
        }
        context.onEnd = { [weak self] in self?.agents[key] = nil }
        logger.info("consent agent connected", ["agents": agents.count, "open_prompts": agent.backlog.count])
        pump(agent)
    }

    /// Sends an agent as many backlog events as its credit allows.
    private func pump(_ agent: ConsentAgent) {
        var sent = 0
        while sent < agent.backlog.count, send(.promptEvent(agent.backlog[sent]), on: agent.context) {
            sent += 1
        }
        if sent > 0 { agent.backlog.removeFirst(sent) }
    }

    /// Tells every agent about a prompt event.
    func broadcast(_ event: PromptEvent) {
        for agent in Array(agents.values) {
            agent.backlog.append(event)
            if agent.backlog.count > ConsentAgent.maxBacklog {
                finish(agent.context, error: BrokerError(code: .resourceExhausted, message: "the agent left more than \(ConsentAgent.maxBacklog) prompt events unread"))
                continue
            }
            pump(agent)
        }
    }

    /// Records a person's answer: the first answer wins; a late or unknown one is NOT_FOUND and records nothing.
    func handleAnswerPrompt(_ promptID: UInt64, decisions: [TypeDecision], context: CallContext) {
        guard let request = openPrompts[promptID], let prompt = request.prompt else {
            finish(context, error: .notFound("no open prompt \(promptID): it was answered, cancelled or withdrawn"))
            return
        }
        let complete: [TypeDecision]
        do throws(BrokerError) {
            complete = try AuthorizationPolicy.completeAnswer(decisions, for: prompt, now: Microseconds.now())
        } catch {
            finish(context, error: error)
            return
        }
        openPrompts[promptID] = nil
        request.state = .committing
        broadcast(.resolved(promptID: promptID, resolution: .answered))
        commit(complete, for: request.appID, by: "agent") { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.reply(context, .adminAnswerPrompt(.init()))
                self.complete(request, with: nil)
            case .failure(let error):
                self.finish(context, error: error)
                self.complete(request, with: error)
            }
        }
    }

    /// The person dismissed the prompt: the app's request ends with user canceled; nothing is recorded.
    func handleCancelPrompt(_ promptID: UInt64, context: CallContext) {
        guard let request = openPrompts.removeValue(forKey: promptID) else {
            finish(context, error: .notFound("no open prompt \(promptID): it was answered, cancelled or withdrawn"))
            return
        }
        logger.info("prompt cancelled", ["prompt_id": promptID, "app_id": request.appID])
        broadcast(.resolved(promptID: promptID, resolution: .cancelled))
        reply(context, .adminCancelPrompt(.init()))
        complete(request, with: BrokerError(.userCanceled, "the person cancelled the authorization prompt"))
    }
}
