import BrokerModel
@testable import healthctl
import Testing

@Suite struct AnswerParserTests {
    static let now = LocalTime.midnight(ofDate: "2026-06-15")! + 3_600 * Samples.second

    @Test(arguments: ["allow", "ALLOW", " a ", "yes", "y"])
    func shareAllow(line: String) {
        #expect(AnswerParser.share(line) == .decided(.allow))
    }

    @Test(arguments: ["deny", "Deny", "d", "no", "n"])
    func shareDeny(line: String) {
        #expect(AnswerParser.share(line) == .decided(.deny))
    }

    @Test func shareCancelEmptyAndNonsense() {
        #expect(AnswerParser.share("cancel") == .cancel)
        #expect(AnswerParser.share("c") == .cancel)
        #expect(AnswerParser.share("   ") == .empty)
        #expect(AnswerParser.share("full") == .invalid("type allow / deny, or cancel"))
    }

    @Test func readFullAndDeny() {
        #expect(AnswerParser.read("full", now: Self.now) == .decided(.full))
        #expect(AnswerParser.read(" F ", now: Self.now) == .decided(.full))
        #expect(AnswerParser.read("deny", now: Self.now) == .decided(.deny))
        #expect(AnswerParser.read("no", now: Self.now) == .decided(.deny))
    }

    @Test(arguments: ["limited 2026-01-01", "LIMITED 2026-01-01", "limited from 2026-01-01", "from 2026-01-01", "2026-01-01", "  limited   2026-01-01 "])
    func readLimitedFromADateMeansLocalMidnight(line: String) {
        let midnight = LocalTime.midnight(ofDate: "2026-01-01")!
        #expect(AnswerParser.read(line, now: Self.now) == .decided(.limited(fromMicros: midnight)))
    }

    @Test(arguments: ["last 30 days", "Last 30 Days", "last 30 day", "last 30", "limited last 30 days"])
    func readLastNDaysResolvesOnceFromNow(line: String) {
        let expected = Self.now - 30 * Samples.day
        #expect(AnswerParser.read(line, now: Self.now) == .decided(.limited(fromMicros: expected)))
    }

    @Test func lastNDaysNeverGoesBeforeTheEpoch() {
        #expect(AnswerParser.read("last 5 days", now: 2 * Samples.day) == .decided(.limited(fromMicros: 0)))
    }

    @Test func readCancelAndEmpty() {
        #expect(AnswerParser.read("cancel", now: Self.now) == .cancel)
        #expect(AnswerParser.read("", now: Self.now) == .empty)
    }

    @Test func badDatesAreExplained() {
        #expect(AnswerParser.read("limited 2026-02-30", now: Self.now)
            == .invalid("'2026-02-30' is not a date: type it as YYYY-MM-DD, e.g. 2026-01-31"))
        #expect(AnswerParser.read("limited 1969-12-31", now: Self.now) == .invalid("the date must be 1970-01-01 or later"))
        #expect(AnswerParser.read("limited", now: Self.now) == .invalid("limited from when? type 'limited YYYY-MM-DD' or 'last N days'"))
        // After now (2026-06-15 01:00 local time): refused here; today's midnight is not.
        #expect(AnswerParser.read("limited 2026-06-16", now: Self.now) == .invalid("2026-06-16 is in the future: give today or an earlier day"))
        #expect(AnswerParser.read("limited 2026-06-15", now: Self.now) == .decided(.limited(fromMicros: LocalTime.midnight(ofDate: "2026-06-15")!)))
    }

    @Test func badDayCountsAreExplained() {
        for line in ["last 0 days", "last -3 days", "last many days", "last 100001 days"] {
            guard case .invalid(let why) = AnswerParser.read(line, now: Self.now) else {
                Issue.record("accepted '\(line)'")
                continue
            }
            #expect(why.hasPrefix("'last N days' needs a whole number of days from 1 to 100000"))
        }
        #expect(AnswerParser.read("last 100000 days", now: Self.now) != .invalid(""))
    }

    @Test func otherWordsListTheChoices() {
        #expect(AnswerParser.read("allow", now: Self.now) == .invalid("type full / limited YYYY-MM-DD / last N days / deny, or cancel"))
        #expect(AnswerParser.read("last 30 weeks", now: Self.now) == .invalid("type full / limited YYYY-MM-DD / last N days / deny, or cancel"))
        #expect(AnswerParser.read("limited 2026-01-01 please", now: Self.now) == .invalid("type full / limited YYYY-MM-DD / last N days / deny, or cancel"))
    }
}
