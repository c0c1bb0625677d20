@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.completeAnswer")
struct CompleteAnswerTests {
    let both = prompt(share: [.stepCount, .workout], read: [.stepCount, .heartRate])

    @Test func aFullAnswerIsReturnedSortedWithOneDecisionPerType() throws {
        let answer = try AuthorizationPolicy.completeAnswer([
            TypeDecision(type: .workout, share: .allow),
            TypeDecision(type: .heartRate, read: .limited(fromMicros: jan2026)),
            TypeDecision(type: .stepCount, share: .deny, read: .full),
        ], for: both)
        #expect(answer == [
            TypeDecision(type: .heartRate, read: .limited(fromMicros: jan2026)),
            TypeDecision(type: .stepCount, share: .deny, read: .full),
            TypeDecision(type: .workout, share: .allow),
        ])
    }

    @Test func anEmptyAnswerDeniesEveryPromptedPart() throws {
        let answer = try AuthorizationPolicy.completeAnswer([], for: both)
        #expect(answer == [
            TypeDecision(type: .heartRate, read: .deny),
            TypeDecision(type: .stepCount, share: .deny, read: .deny),
            TypeDecision(type: .workout, share: .deny),
        ])
    }

    @Test func unansweredPartsOfAnsweredTypesAreDenied() throws {
        let answer = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .stepCount, share: .allow)], for: both)
        #expect(answer.first { $0.type == .stepCount } == TypeDecision(type: .stepCount, share: .allow, read: .deny))
        #expect(answer.first { $0.type == .workout } == TypeDecision(type: .workout, share: .deny))
        #expect(answer.first { $0.type == .heartRate } == TypeDecision(type: .heartRate, read: .deny))
    }

    @Test func aDecisionWithNoPartsCountsAsUnanswered() throws {
        let answer = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate)], for: both)
        #expect(answer.first { $0.type == .heartRate } == TypeDecision(type: .heartRate, read: .deny))
    }

    @Test func aTypeNotInThePromptIsInvalidNamingIt() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([
                TypeDecision(type: .bodyMass, read: .full),
                TypeDecision(type: ObjectType("HKBogus"), share: .allow),
                TypeDecision(type: .stepCount, share: .allow),
            ], for: both)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.domain == .invalidArgument)
        #expect(error.message.contains("not in prompt 7"))
        #expect(error.message.contains(ObjectType.bodyMass.identifier))
        #expect(error.message.contains("HKBogus"))
        #expect(!error.message.contains(ObjectType.stepCount.identifier))
    }

    @Test func aSharePartForAReadOnlyPromptedTypeIsInvalid() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate, share: .allow, read: .full)], for: both)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("does not ask to share"))
        #expect(error.message.contains(ObjectType.heartRate.identifier))
    }

    @Test func aReadPartForAShareOnlyPromptedTypeIsInvalid() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .workout, share: .allow, read: .deny)], for: both)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("does not ask to read"))
        #expect(error.message.contains(ObjectType.workout.identifier))
    }

    @Test func aNegativeLimitedDateIsInvalid() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate, read: .limited(fromMicros: -1))], for: both)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("negative"))
        #expect(error.message.contains(ObjectType.heartRate.identifier))
        // Zero is the epoch: allowed.
        let answer = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate, read: .limited(fromMicros: 0))], for: both)
        #expect(answer.first { $0.type == .heartRate }?.read == .limited(fromMicros: 0))
    }

    @Test func aLimitedDateAfterNowIsInvalid() throws {
        let now: Int64 = 1_780_000_000_000_000
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer(
                [TypeDecision(type: .heartRate, read: .limited(fromMicros: now + 1))], for: both, now: now)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("in the future"))
        #expect(error.message.contains(ObjectType.heartRate.identifier))
        // Now itself is the latest date allowed.
        let answer = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate, read: .limited(fromMicros: now))], for: both, now: now)
        #expect(answer.first { $0.type == .heartRate }?.read == .limited(fromMicros: now))
    }

    @Test func duplicateDecisionsAreInvalid() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([
                TypeDecision(type: .stepCount, share: .allow),
                TypeDecision(type: .stepCount, read: .full),
            ], for: both)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("more than one decision"))
        #expect(error.message.contains(ObjectType.stepCount.identifier))
    }

    @Test func everyProblemIsReportedInOneMessage() throws {
        let error = try #require(thrownError {
            _ = try AuthorizationPolicy.completeAnswer([
                TypeDecision(type: .bodyMass, read: .full),
                TypeDecision(type: .heartRate, share: .allow, read: .limited(fromMicros: -5)),
                TypeDecision(type: .workout, read: .full),
                TypeDecision(type: .workout, share: .deny),
            ], for: both)
        })
        #expect(error.message.contains("not in prompt"))
        #expect(error.message.contains("does not ask to share"))
        #expect(error.message.contains("does not ask to read"))
        #expect(error.message.contains("negative"))
        #expect(error.message.contains("more than one decision"))
    }

    @Test func answerAppliedToGrantsDecidesEveryPromptedPart() throws {
        var set = AppGrants()
        let answer = try AuthorizationPolicy.completeAnswer([TypeDecision(type: .heartRate, read: .full)], for: both)
        set.apply(answer, at: 10, by: "agent")
        let left = AuthorizationPolicy.undecided(share: both.shareTypes, read: both.readTypes, grants: set)
        #expect(left.share.isEmpty)
        #expect(left.read.isEmpty)
        #expect(AuthorizationPolicy.authorizationStatus(for: .workout, grants: set) == .sharingDenied)
    }
}
