import BrokerModel
import BrokerPolicy
import BrokerSupport
@testable import healthctl
import Testing

@Suite struct PolicyAnswerTests {
    @Test func keepsOnlyPromptedPartsAndListsWhatIsNotCovered() {
        let prompt = Samples.prompt(share: [.bodyMass, .workout], read: [.stepCount, .heartRate, .sleepAnalysis])
        let answer = PolicyAnswer(prompt: prompt, policyDecisions: [
            TypeDecision(type: .bodyMass, share: .deny, read: .full),       // read part not asked: dropped
            TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 5)),  // share part not asked: dropped
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .bloodType, read: .full),                    // not in the prompt at all
        ])
        #expect(answer.decisions == [
            TypeDecision(type: .bodyMass, share: .deny),
            TypeDecision(type: .stepCount, read: .limited(fromMicros: 5)),
            TypeDecision(type: .heartRate, read: .full),
        ])
        #expect(answer.uncoveredShare == [.workout])
        #expect(answer.uncoveredRead == [.sleepAnalysis])
        #expect(answer.leavesSomethingOut)
    }

    @Test func logLines() {
        let prompt = Samples.prompt(share: [.workout], read: [.stepCount])
        let answer = PolicyAnswer(prompt: prompt, policyDecisions: [TypeDecision(type: .stepCount, read: .full)])
        #expect(answer.answeredLine(prompt) == "prompt 7 from com.example.steps answered by the policy: read stepCount full")
        #expect(answer.uncoveredLine(prompt)
            == "prompt 7: the policy does not cover share workout; left out of the answer, so the broker records it as denied")
    }

    @Test func aFullyCoveredPromptHasNoUncoveredLine() {
        let prompt = Samples.prompt(share: [], read: [.stepCount])
        let answer = PolicyAnswer(prompt: prompt, policyDecisions: [TypeDecision(type: .stepCount, read: .deny)])
        #expect(!answer.leavesSomethingOut)
        #expect(answer.uncoveredLine(prompt) == nil)
    }

    @Test func aPolicyThatCoversNothingSendsAnEmptyAnswer() {
        let prompt = Samples.prompt()
        let answer = PolicyAnswer(prompt: prompt, policyDecisions: [])
        #expect(answer.decisions.isEmpty)
        #expect(answer.answeredLine(prompt).hasSuffix("answered by the policy: nothing"))
        #expect(answer.uncoveredRead == [.stepCount, .heartRate])
        #expect(answer.uncoveredLine(prompt)?.hasSuffix("records them as denied") == true)
    }

    @Test func worksWithARealPolicyFile() throws {
        let json = #"{ "rules": [ { "app": "com.example.steps", "types": ["HKQuantityTypeIdentifierStepCount"], "read": "limited", "last_days": 30 } ] }"#
        let policy = try ConsentPolicy(jsonData: Array(json.utf8), now: Microseconds.now())
        let prompt = Samples.prompt(share: [], read: [.stepCount, .heartRate])
        let now = UTCTimestamp.micros(fromDate: "2026-06-15")!
        let answer = PolicyAnswer(prompt: prompt, policyDecisions: policy.decide(appID: prompt.appID, share: [], read: prompt.readTypes, now: now))
        #expect(answer.decisions == [TypeDecision(type: .stepCount, read: .limited(fromMicros: now - 30 * Samples.day))])
        #expect(answer.uncoveredRead == [.heartRate])
    }
}
