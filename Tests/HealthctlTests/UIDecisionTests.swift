import BrokerModel
@testable import healthctl
import Testing

@Suite struct UIDecisionTests {
    static let now = LocalTime.midnight(ofDate: "2026-06-15")! + 3_600 * Samples.second

    @Test func fullDenyAndShare() throws {
        let decision = try UIDecision(type: "stepCount", share: "allow", read: "full").typeDecision(nowMicros: Self.now)
        #expect(decision == TypeDecision(type: .stepCount, share: .allow, read: .full))
        let denied = try UIDecision(type: "HKQuantityTypeIdentifierHeartRate", share: nil, read: "deny").typeDecision(nowMicros: Self.now)
        #expect(denied == TypeDecision(type: .heartRate, read: .deny))
    }

    @Test func fromADateIsLocalMidnight() throws {
        let decision = try UIDecision(type: "stepCount", read: "from", from: "2026-06-01").typeDecision(nowMicros: Self.now)
        #expect(decision.read == .limited(fromMicros: LocalTime.midnight(ofDate: "2026-06-01")!))
        let today = try UIDecision(type: "stepCount", read: "from", from: "2026-06-15").typeDecision(nowMicros: Self.now)
        #expect(today.read == .limited(fromMicros: LocalTime.midnight(ofDate: "2026-06-15")!))
    }

    @Test func futureMalformedAndCharacteristicDatesAreRefused() {
        #expect(throws: UIDecision.Invalid(message: "2026-06-16 is in the future: choose today or an earlier day")) {
            try UIDecision(type: "stepCount", read: "from", from: "2026-06-16").typeDecision(nowMicros: Self.now)
        }
        #expect(throws: UIDecision.Invalid(message: "choose a date (YYYY-MM-DD) for Steps")) {
            try UIDecision(type: "stepCount", read: "from", from: "2026-02-30").typeDecision(nowMicros: Self.now)
        }
        #expect(throws: UIDecision.Invalid(message: "Date of birth is not a series of samples: choose full or deny")) {
            try UIDecision(type: "dateOfBirth", read: "from", from: "2026-06-01").typeDecision(nowMicros: Self.now)
        }
        #expect(throws: UIDecision.Invalid(message: "unknown type nonsense")) {
            try UIDecision(type: "nonsense", read: "full").typeDecision(nowMicros: Self.now)
        }
        #expect(throws: UIDecision.Invalid(message: "read must be full, from or deny, not limited")) {
            try UIDecision(type: "stepCount", read: "limited").typeDecision(nowMicros: Self.now)
        }
    }

    @Test func groupsAndPlainNames() {
        #expect(PlainTypeName.group(of: .stepCount) == .activity)
        #expect(PlainTypeName.group(of: .heartRate) == .heart)
        #expect(PlainTypeName.group(of: .dateOfBirth) == .characteristics)
        #expect(PlainTypeName.group(of: ObjectType("HKQuantityTypeIdentifierNoSuchThing")) == .other)
        let info = UIJSON.TypeInfo(.bodyMass)
        #expect(info.name == "Body weight")
        #expect(info.group == TypeGroup.bodyMeasurements.displayName)
        #expect(info.groupRank == TypeGroup.allCases.firstIndex(of: .bodyMeasurements))
    }
}
