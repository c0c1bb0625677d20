import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// Validates a request and queues it behind the app's other requests (one prompt per app at a time).
    func handleRequestAuthorization(share: [ObjectType], read: [ObjectType], context: CallContext) {
        guard let appID = context.session?.appID, let app = apps[appID] else {
            finish(context, error: .unauthenticated("the app is no longer registered"))
            return
        }
        do throws(BrokerError) {
            try AuthorizationPolicy.validateRequest(share: share, read: read, app: app.info)
        } catch {
            finish(context, error: error)
            return
        }
        let name = app.info.name
        worker.submit({ store throws(BrokerError) in
            try store.recordRequest(appID: appID, appName: name, now: Microseconds.now())
        }) { [weak self] result in
            self?.noteStoreResult(result)
            if case .failure(let error) = result {
                self?.logger.warning("cannot record source", ["app_id": appID, "error": error.description])
            }
        }
        if let queue = requestQueues[appID], queue.waiting.count >= configuration.maxQueuedAuthorizationRequests {
            finish(context, error: BrokerError(.requestPending, "\(queue.waiting.count) authorization requests of this app are already waiting"))
            return
        }
        let request = AuthorizationRequest(appID: appID, share: share, read: read, context: context)
        context.onEnd = { [weak self, weak request] in
            guard let self, let request else { return }
            self.requestCallEnded(request)
        }
        let queue = requestQueues[appID] ?? RequestQueue()
        requestQueues[appID] = queue
        if queue.active == nil {
            queue.active = request
            evaluate(request)
        } else {
            queue.waiting.append(request)
            logger.debug("authorization request queued", ["app_id": appID, "waiting": queue.waiting.count])
        }
    }

    /// Decides what is still undecided: nothing → success; the policy's part → committed; the rest → a prompt.
    private func evaluate(_ request: AuthorizationRequest) {
        request.state = .evaluating
        let current = grants[request.appID] ?? AppGrants()
        let open = AuthorizationPolicy.undecided(share: request.share, read: request.read, grants: current)
        if open.share.isEmpty, open.read.isEmpty {
            complete(request, with: nil)
            return
        }
        let ruled = consentPolicy?.decide(appID: request.appID, share: open.share, read: open.read, now: Microseconds.now()) ?? []
        guard !ruled.isEmpty else {
            raisePrompt(for: request, share: open.share, read: open.read)
            return
        }
        commit(ruled, for: request.appID, by: "policy") { [weak self, weak request] result in
            guard let self, let request else { return }
            switch result {
            case .success:
                guard request.context.isLive else { return }
                let after = AuthorizationPolicy.undecided(share: request.share, read: request.read, grants: self.grants[request.appID] ?? AppGrants())
                if after.share.isEmpty, after.read.isEmpty {
                    self.complete(request, with: nil)
                } else {
                    self.raisePrompt(for: request, share: after.share, read: after.read)
                }
            case .failure(let error):
                self.complete(request, with: error)
            }
        }
    }

    private func raisePrompt(for request: AuthorizationRequest, share: [ObjectType], read: [ObjectType]) {
        guard let app = apps[request.appID] else {
            complete(request, with: .unauthenticated("the app is no longer registered"))
            return
        }
        let prompt = Prompt(
            id: nextPromptID, appID: request.appID, appName: app.info.name,
            readUsage: app.info.readUsage, shareUsage: app.info.shareUsage,
            shareTypes: share, readTypes: read, createdMicros: Microseconds.now(),
            deadlineMicros: request.context.deadlineMicros)
        nextPromptID += 1
        request.prompt = prompt
        request.state = .prompting
        openPrompts[prompt.id] = request
        logger.info("prompt raised", ["prompt_id": prompt.id, "app_id": request.appID, "share_types": share.count, "read_types": read.count, "agents": agents.count])
        if agents.isEmpty {
            // Nobody can answer until an agent connects, and the app just waits: say so once, where
            // the admin looks, naming what is asked (type identifiers only, never sample data).
            logger.warning("prompt raised with no consent agent connected: it waits until one connects (healthctl consent)", [
                "prompt_id": prompt.id, "app_id": request.appID,
                "share_types": share.map(\.identifier).joined(separator: ","),
                "read_types": read.map(\.identifier).joined(separator: ","),
            ])
        }
        broadcast(.raised(prompt))
    }

    /// Commits decisions to SQLite, then makes them visible in memory, then calls back.
    func commit(_ decisions: [TypeDecision], for appID: String, by decidedBy: String, completion: @escaping (Result<Void, BrokerError>) -> Void) {
        var merged = grants[appID] ?? AppGrants()
        merged.apply(decisions, at: Microseconds.now(), by: decidedBy)
        let rows = decisions.compactMap { merged[$0.type] }
        worker.submit({ store throws(BrokerError) in
            try store.recordGrants(appID: appID, grants: rows)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            if case .success = result {
                var current = self.grants[appID] ?? AppGrants()
                for row in rows { current.grants[row.type] = row }
                self.grants[appID] = current
                self.logger.info("decisions recorded", ["app_id": appID, "types": rows.count, "by": decidedBy])
            }
            completion(result.map { _ in () })
        }
    }

    /// Ends the request (success when `error` is nil) and lets the app's next request go.
    func complete(_ request: AuthorizationRequest, with error: BrokerError?) {
        guard request.state != .finished else { return }
        request.state = .finished
        if let error {
            finish(request.context, error: error)
        } else {
            reply(request.context, .requestAuthorization(.init()))
        }
        advanceQueue(of: request)
    }

    /// The request's call ended (deadline, cancel, disconnect, or its own completion).
    private func requestCallEnded(_ request: AuthorizationRequest) {
        switch request.state {
        case .finished, .committing:
            // A committing answer still lands (it arrived in time); its reply is dropped.
            return
        case .queued:
            request.state = .finished
            if let queue = requestQueues[request.appID] {
                queue.waiting.removeAll { $0 === request }
                if queue.isEmpty { requestQueues[request.appID] = nil }
            }
        case .evaluating, .prompting:
            request.state = .finished
            if let prompt = request.prompt, openPrompts.removeValue(forKey: prompt.id) != nil {
                logger.info("prompt withdrawn", ["prompt_id": prompt.id, "app_id": request.appID])
                broadcast(.resolved(promptID: prompt.id, resolution: .withdrawn))
            }
            advanceQueue(of: request)
        }
    }

    private func advanceQueue(of request: AuthorizationRequest) {
        guard let queue = requestQueues[request.appID], queue.active === request else { return }
        queue.active = nil
        while !queue.waiting.isEmpty {
            let next = queue.waiting.removeFirst()
            guard next.context.isLive, next.state == .queued else { continue }
            queue.active = next
            evaluate(next)
            return
        }
        requestQueues[request.appID] = nil
    }
}
