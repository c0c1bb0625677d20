import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerWire

extension Broker {
    /// Name recorded as `decided_by` for a decision the operator set directly.
    static let adminDecider = "admin"

    /// AdminSetGrant: records the person's decision for one app and type without a prompt.
    ///
    /// It goes through `commit`, as a prompt's answer does: SQLite first, then the in-memory copy,
    /// whose change bumps `grantsGeneration`, so every session of the app drops its cached grants and
    /// its very next call (and its open streams' next page or notification) sees the new decision.
    /// An open prompt of the app is left as it is: its answer, when it comes, records its own parts.
    func handleSetGrant(_ appID: String, decision: TypeDecision, context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        do throws(BrokerError) {
            try AuthorizationPolicy.validateSetGrant(decision, now: Microseconds.now())
        } catch {
            finish(context, error: error)
            return
        }
        commit([decision], for: appID, by: Self.adminDecider) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                guard let grant = self.grants[appID]?[decision.type] else {
                    self.finish(context, error: .internal("the grant of \(appID) for \(decision.type.identifier) was recorded but is not in memory"))
                    return
                }
                self.reply(context, .adminSetGrant(.with { $0.grant = grant.proto }))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }
}
