@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.validateSetGrant")
struct SetGrantRulesTests {
    let now = jan2026 + 86_400_000_000

    /// The INVALID_ARGUMENT message for `decision`, or nil when it is accepted.
    func refusal(_ decision: TypeDecision) -> String? {
        do {
            try AuthorizationPolicy.validateSetGrant(decision, now: now)
            return nil
        } catch {
            #expect(error.code == .invalidArgument)
            return error.message
        }
    }

    @Test func everyWellFormedDecisionIsAccepted() {
        #expect(refusal(TypeDecision(type: .stepCount, share: .allow)) == nil)
        #expect(refusal(TypeDecision(type: .stepCount, read: .deny)) == nil)
        #expect(refusal(TypeDecision(type: .stepCount, share: .deny, read: .full)) == nil)
        #expect(refusal(TypeDecision(type: .stepCount, read: .limited(fromMicros: now))) == nil)   // now itself is not the future
        #expect(refusal(TypeDecision(type: .heartRate, read: .limited(fromMicros: 0))) == nil)
        #expect(refusal(TypeDecision(type: .dateOfBirth, read: .full)) == nil)
        #expect(refusal(TypeDecision(type: .bloodType, read: .deny)) == nil)
    }

    @Test func aDecisionWithNoPartIsRefused() {
        #expect(refusal(TypeDecision(type: .stepCount))?.contains("AdminRevoke") == true)
    }

    @Test func limitedDatesMustBeFromTheEpochUpToNow() {
        #expect(refusal(TypeDecision(type: .stepCount, read: .limited(fromMicros: now + 1)))?.contains("future") == true)
        #expect(refusal(TypeDecision(type: .stepCount, read: .limited(fromMicros: -1)))?.contains("negative") == true)
    }

    @Test func characteristicsAreReadOnlyAndHaveNoDate() {
        #expect(refusal(TypeDecision(type: .dateOfBirth, share: .allow))?.contains("cannot be shared") == true)
        #expect(refusal(TypeDecision(type: .biologicalSex, read: .limited(fromMicros: jan2026)))?.contains("characteristic") == true)
    }

    @Test func anUnknownTypeIsRefusedByName() {
        #expect(refusal(TypeDecision(type: ObjectType("HKQuantityTypeIdentifierMadeUp"), read: .full))?.contains("MadeUp") == true)
    }
}
