@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AppGrants")
struct AppGrantsTests {
    @Test func startsEmptyAndIndexesByType() {
        #expect(AppGrants().grants.isEmpty)
        #expect(AppGrants()[.stepCount] == nil)
        let set = grants((.stepCount, .allow, nil), (.heartRate, nil, .full))
        #expect(set[.stepCount]?.share == .allow)
        #expect(set[.heartRate]?.read == .full)
        #expect(set[.bodyMass] == nil)
        #expect(set.grants.count == 2)
    }

    @Test func laterGrantForTheSameTypeWinsInInit() {
        let set = AppGrants([
            Grant(type: .stepCount, share: .deny, decidedMicros: 1, decidedBy: "a"),
            Grant(type: .stepCount, share: .allow, decidedMicros: 2, decidedBy: "b"),
        ])
        #expect(set.grants.count == 1)
        #expect(set[.stepCount]?.share == .allow)
        #expect(set[.stepCount]?.decidedBy == "b")
    }

    @Test func applyCreatesGrantsWithTimeAndDecider() {
        var set = AppGrants()
        set.apply([TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 5))], at: 42, by: "policy")
        #expect(set[.stepCount] == Grant(type: .stepCount, share: .allow, read: .limited(fromMicros: 5), decidedMicros: 42, decidedBy: "policy"))
    }

    @Test func applyMergesPartsLeavingNilPartsAsRecorded() {
        var set = grants((.stepCount, .allow, .full))
        set.apply([TypeDecision(type: .stepCount, read: .deny)], at: 200, by: "agent2")
        #expect(set[.stepCount]?.share == .allow)  // untouched
        #expect(set[.stepCount]?.read == .deny)
        #expect(set[.stepCount]?.decidedMicros == 200)
        #expect(set[.stepCount]?.decidedBy == "agent2")

        set.apply([TypeDecision(type: .stepCount, share: .deny)], at: 300, by: "agent3")
        #expect(set[.stepCount]?.share == .deny)
        #expect(set[.stepCount]?.read == .deny)  // untouched
        #expect(set[.stepCount]?.decidedMicros == 300)
    }

    @Test func applyAddsAReadPartToAShareOnlyGrant() {
        var set = grants((.workout, .allow, nil))
        set.apply([TypeDecision(type: .workout, read: .limited(fromMicros: jan2026))], at: 9, by: "agent")
        #expect(set[.workout]?.share == .allow)
        #expect(set[.workout]?.read == .limited(fromMicros: jan2026))
    }

    @Test func applyWithAnEmptyDecisionChangesNothing() {
        var set = grants((.stepCount, .allow, nil))
        let before = set
        set.apply([TypeDecision(type: .stepCount), TypeDecision(type: .heartRate)], at: 999, by: "x")
        #expect(set == before)
        #expect(set[.heartRate] == nil)
    }

    @Test func applyHandlesSeveralTypesAtOnce() {
        var set = AppGrants()
        set.apply([
            TypeDecision(type: .stepCount, share: .deny),
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .bodyMass, share: .allow, read: .deny),
        ], at: 5, by: "agent")
        #expect(set.grants.count == 3)
        #expect(set[.stepCount]?.read == nil)
        #expect(set[.heartRate]?.share == nil)
        #expect(set[.bodyMass]?.share == .allow)
    }

    @Test func revokeNamedTypesCountsOnlyThoseWithGrants() {
        var set = grants((.stepCount, .allow, nil), (.heartRate, nil, .full), (.bodyMass, .deny, .deny))
        #expect(set.revoke([.stepCount, .workout, .stepCount]) == 1)
        #expect(set[.stepCount] == nil)
        #expect(set[.heartRate] != nil)
        #expect(set[.bodyMass] != nil)
        #expect(set.revoke([.workout]) == 0)
        #expect(set.grants.count == 2)
    }

    @Test func revokeWithNoTypesForgetsEverything() {
        var set = grants((.stepCount, .allow, nil), (.heartRate, nil, .full))
        #expect(set.revoke([]) == 2)
        #expect(set.grants.isEmpty)
        #expect(set.revoke([]) == 0)
    }

    @Test func revokedTypeIsUndecidedAgain() {
        var set = grants((.stepCount, .allow, .full))
        #expect(AuthorizationPolicy.requestStatus(share: [.stepCount], read: [.stepCount], grants: set) == .unnecessary)
        set.revoke([.stepCount])
        #expect(AuthorizationPolicy.requestStatus(share: [.stepCount], read: [.stepCount], grants: set) == .shouldRequest)
        #expect(AuthorizationPolicy.authorizationStatus(for: .stepCount, grants: set) == .notDetermined)
        #expect(AuthorizationPolicy.readScope(for: .stepCount, grants: set, earliestPermitted: 0) == .notDetermined)
    }
}
