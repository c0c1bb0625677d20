import BrokerModel
@testable import healthctl
import Testing

@Suite struct UIJSONTests {
    @Test func aPromptCarriesItsDeadlineInMillisecondsOrNone() {
        let timed = UIJSON.PromptInfo(Samples.prompt(deadline: Samples.june1 + 90 * Samples.second))
        #expect(timed.deadline == (Samples.june1 + 90 * Samples.second) / 1_000)
        #expect(timed.created == Samples.june1 / 1_000)
        #expect(UIJSON.PromptInfo(Samples.prompt()).deadline == nil)
        // A deadline no browser can show (a timeout near Int64.max) is no limit in practice.
        #expect(UIJSON.PromptInfo(Samples.prompt(deadline: Int64.max)).deadline == nil)
    }
}
