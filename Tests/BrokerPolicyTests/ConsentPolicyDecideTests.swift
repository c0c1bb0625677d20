@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("ConsentPolicy.decide")
struct ConsentPolicyDecideTests {
    func policy(_ json: String) throws -> ConsentPolicy {
        try ConsentPolicy(jsonData: bytes(json))
    }

    let now = jan2026 + 100 * day

    @Test func decidesOnlyCoveredPartsAndLeavesTheRestOut() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "full"}]}"#)
        let decisions = rules.decide(appID: "a", share: [.stepCount], read: [.stepCount, .heartRate], now: now)
        #expect(decisions == [TypeDecision(type: .stepCount, read: .full)])
    }

    @Test func noMatchingRuleGivesNoDecisions() throws {
        let rules = try policy(#"{"rules": [{"app": "com.other", "share": "allow", "read": "full"}]}"#)
        #expect(rules.decide(appID: "com.me", share: [.stepCount], read: [.heartRate], now: now).isEmpty)
        #expect(try policy(#"{"rules": []}"#).decide(appID: "a", share: [.stepCount], read: [], now: now).isEmpty)
    }

    @Test func firstMatchingRuleWinsInFileOrder() throws {
        let rules = try policy("""
            {"rules": [
              {"app": "a", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "full"},
              {"app": "*", "read": "deny"}
            ]}
            """)
        #expect(rules.decide(appID: "a", share: [], read: [.stepCount, .heartRate], now: now) == [
            TypeDecision(type: .heartRate, read: .deny),
            TypeDecision(type: .stepCount, read: .full),
        ])
        // Reversed order: the catch-all wins for everything.
        let reversed = try policy("""
            {"rules": [
              {"app": "*", "read": "deny"},
              {"app": "a", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "full"}
            ]}
            """)
        #expect(reversed.decide(appID: "a", share: [], read: [.stepCount], now: now) == [TypeDecision(type: .stepCount, read: .deny)])
    }

    @Test func eachPartIsDecidedByTheFirstRuleThatGivesIt() throws {
        let rules = try policy("""
            {"rules": [
              {"app": "a", "types": ["HKQuantityTypeIdentifierStepCount"], "share": "allow"},
              {"app": "*", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "limited", "from": "2026-01-01"},
              {"app": "*", "share": "deny", "read": "deny"}
            ]}
            """)
        // Rule 0 gives only share, so read falls through to rule 1.
        #expect(rules.decide(appID: "a", share: [.stepCount], read: [.stepCount], now: now) == [
            TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: jan2026)),
        ])
        // Another app: rule 0 does not match; share falls to rule 2.
        #expect(rules.decide(appID: "b", share: [.stepCount], read: [.stepCount], now: now) == [
            TypeDecision(type: .stepCount, share: .deny, read: .limited(fromMicros: jan2026)),
        ])
    }

    @Test func onlyRequestedPartsAreDecided() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "share": "allow", "read": "full"}]}"#)
        #expect(rules.decide(appID: "a", share: [.workout], read: [], now: now) == [TypeDecision(type: .workout, share: .allow)])
        #expect(rules.decide(appID: "a", share: [], read: [.workout], now: now) == [TypeDecision(type: .workout, read: .full)])
    }

    @Test func appMatchesExactlyOrByStar() throws {
        let rules = try policy(#"{"rules": [{"app": "com.example.steps", "read": "full"}, {"app": "*", "read": "deny"}]}"#)
        #expect(rules.decide(appID: "com.example.steps", share: [], read: [.stepCount], now: now).first?.read == .full)
        #expect(rules.decide(appID: "com.example.steps2", share: [], read: [.stepCount], now: now).first?.read == .deny)
        #expect(rules.decide(appID: "com.example", share: [], read: [.stepCount], now: now).first?.read == .deny)
        #expect(rules.decide(appID: "COM.EXAMPLE.STEPS", share: [], read: [.stepCount], now: now).first?.read == .deny)
    }

    @Test func typesMatchListedIdentifiersOrStar() throws {
        let rules = try policy("""
            {"rules": [
              {"app": "*", "types": ["HKQuantityTypeIdentifierHeartRate", "HKWorkoutTypeIdentifier"], "read": "full"},
              {"app": "*", "types": ["*"], "read": "deny"}
            ]}
            """)
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate, .workout, .bodyMass], now: now) == [
            TypeDecision(type: .bodyMass, read: .deny),
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .workout, read: .full),
        ])
    }

    @Test func starAmongListedTypesMatchesEverything() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "types": ["HKQuantityTypeIdentifierStepCount", "*"], "share": "deny"}]}"#)
        #expect(rules.decide(appID: "a", share: [.bodyMass], read: [], now: now) == [TypeDecision(type: .bodyMass, share: .deny)])
    }

    @Test func lastDaysResolvesAgainstNow() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "read": "limited", "last_days": 30}]}"#)
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate], now: now) == [
            TypeDecision(type: .heartRate, read: .limited(fromMicros: now - 30 * 86_400_000_000)),
        ])
    }

    @Test func lastDaysIsAFixedDateNotARollingWindow() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "read": "limited", "last_days": 1}]}"#)
        let first = rules.decide(appID: "a", share: [], read: [.heartRate], now: now)
        let later = rules.decide(appID: "a", share: [], read: [.heartRate], now: now + 5 * day)
        #expect(first == [TypeDecision(type: .heartRate, read: .limited(fromMicros: now - day))])
        #expect(later == [TypeDecision(type: .heartRate, read: .limited(fromMicros: now + 4 * day))])
        // Once recorded, the grant keeps the date it was given.
        var set = AppGrants()
        set.apply(first, at: now, by: "policy")
        #expect(AuthorizationPolicy.earliestAuthorizedSampleDates(for: [.heartRate], grants: set, earliestPermitted: 0) == [.heartRate: now - day])
    }

    @Test func lastDaysBeforeTheEpochIsClampedToZero() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "read": "limited", "last_days": 106751}]}"#)
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate], now: day) == [TypeDecision(type: .heartRate, read: .limited(fromMicros: 0))])
    }

    @Test func largestLastDaysDoesNotOverflow() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "read": "limited", "last_days": 106751991}]}"#)
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate], now: now) == [TypeDecision(type: .heartRate, read: .limited(fromMicros: 0))])
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate], now: .max).first?.read == .limited(fromMicros: .max - 106_751_991 * day))
        #expect(rules.decide(appID: "a", share: [], read: [.heartRate], now: .min).first?.read == .limited(fromMicros: 0))
    }

    @Test func fromDateTimeIsExact() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "read": "limited", "from": "2026-01-01T06:00:00Z"}]}"#)
        #expect(rules.decide(appID: "a", share: [], read: [.stepCount], now: now).first?.read == .limited(fromMicros: jan2026 + 6 * 3_600_000_000))
    }

    @Test func duplicateRequestedTypesGiveOneDecision() throws {
        let rules = try policy(#"{"rules": [{"app": "*", "share": "allow", "read": "full"}]}"#)
        let decisions = rules.decide(appID: "a", share: [.stepCount, .stepCount], read: [.stepCount], now: now)
        #expect(decisions == [TypeDecision(type: .stepCount, share: .allow, read: .full)])
    }

    @Test func policyDecisionsLeaveTheRestToAPerson() throws {
        // The daemon decides what the policy covers, then prompts for what is left.
        let rules = try policy(#"{"rules": [{"app": "*", "types": ["HKQuantityTypeIdentifierStepCount"], "share": "allow", "read": "full"}]}"#)
        var set = AppGrants()
        set.apply(rules.decide(appID: "a", share: [.stepCount, .workout], read: [.stepCount, .heartRate], now: now), at: now, by: "policy")
        let left = AuthorizationPolicy.undecided(share: [.stepCount, .workout], read: [.stepCount, .heartRate], grants: set)
        #expect(left.share == [.workout])
        #expect(left.read == [.heartRate])
    }
}
