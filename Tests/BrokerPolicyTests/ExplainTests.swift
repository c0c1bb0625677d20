@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.explain")
struct ExplainTests {
    @Test func neverAsked() {
        let explanation = AuthorizationPolicy.explain(type: .stepCount, grants: AppGrants(), earliestPermitted: jan2020)
        #expect(explanation.grant == nil)
        #expect(explanation.effectiveReadFromMicros == nil)
        #expect(explanation.earliestPermittedMicros == jan2020)
        #expect(explanation.text.contains("never asked"))
        #expect(explanation.text.contains(ObjectType.stepCount.identifier))
    }

    @Test func readDenied() {
        let set = AppGrants([Grant(type: .stepCount, share: .allow, read: .deny, decidedMicros: jan2026, decidedBy: "agent")])
        let explanation = AuthorizationPolicy.explain(type: .stepCount, grants: set, earliestPermitted: jan2020)
        #expect(explanation.grant == set[.stepCount])
        #expect(explanation.effectiveReadFromMicros == nil)
        #expect(explanation.text.contains("read denied: the app sees only samples it saved itself"))
        #expect(explanation.text.contains("sharing authorized"))
        #expect(explanation.text.contains("agent"))
        #expect(explanation.text.contains("2026-01-01T00:00:00Z"))
    }

    @Test func limitedAfterTheFloor() {
        let set = AppGrants([Grant(type: .heartRate, read: .limited(fromMicros: jan2026), decidedMicros: jan2026 + day, decidedBy: "policy")])
        let explanation = AuthorizationPolicy.explain(type: .heartRate, grants: set, earliestPermitted: jan2020)
        #expect(explanation.effectiveReadFromMicros == jan2026)
        #expect(explanation.text.contains("limited from 2026-01-01T00:00:00Z (chosen start 2026-01-01T00:00:00Z; store floor 2020-01-01T00:00:00Z)"))
        #expect(explanation.text.contains("sharing never asked"))
        #expect(explanation.text.contains("policy"))
        #expect(explanation.text.contains("2026-01-02T00:00:00Z"))
    }

    @Test func limitedBeforeTheFloorReadsFromTheFloor() {
        let set = AppGrants([Grant(type: .heartRate, read: .limited(fromMicros: jan2020), decidedMicros: 1, decidedBy: "agent")])
        let explanation = AuthorizationPolicy.explain(type: .heartRate, grants: set, earliestPermitted: jan2026)
        #expect(explanation.effectiveReadFromMicros == jan2026)
        #expect(explanation.text.contains("limited from 2026-01-01T00:00:00Z (chosen start 2020-01-01T00:00:00Z; store floor 2026-01-01T00:00:00Z)"))
    }

    @Test func fullAccess() {
        let set = AppGrants([Grant(type: .bodyMass, share: .deny, read: .full, decidedMicros: 1, decidedBy: "agent")])
        let explanation = AuthorizationPolicy.explain(type: .bodyMass, grants: set, earliestPermitted: jan2020)
        #expect(explanation.effectiveReadFromMicros == jan2020)
        #expect(explanation.text.contains("full access from the store floor (2020-01-01T00:00:00Z)"))
        #expect(explanation.text.contains("sharing denied"))
    }

    @Test func shareOnlyGrant() {
        let set = AppGrants([Grant(type: .workout, share: .allow, decidedMicros: 1, decidedBy: "agent")])
        let explanation = AuthorizationPolicy.explain(type: .workout, grants: set, earliestPermitted: 0)
        #expect(explanation.effectiveReadFromMicros == nil)
        #expect(explanation.text.contains("read never asked"))
        #expect(explanation.text.contains("sharing authorized"))
    }

    @Test func characteristicReadHasNoTimeWindow() {
        let set = AppGrants([Grant(type: .dateOfBirth, read: .full, decidedMicros: 1, decidedBy: "agent")])
        let explanation = AuthorizationPolicy.explain(type: .dateOfBirth, grants: set, earliestPermitted: jan2020)
        #expect(explanation.text.contains("no time window"))
    }
}
