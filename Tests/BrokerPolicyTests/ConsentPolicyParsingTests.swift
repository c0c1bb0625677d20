@testable import BrokerModel
@testable import BrokerPolicy
import Foundation
import Testing

@Suite("ConsentPolicy parsing")
struct ConsentPolicyParsingTests {
    func parse(_ json: String) throws(BrokerError) -> ConsentPolicy {
        try ConsentPolicy(jsonData: bytes(json))
    }

    /// The error parsing `json` raises; it must be INVALID_ARGUMENT.
    func failure(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let error = try #require(thrownError { _ = try parse(json) }, sourceLocation: sourceLocation)
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.domain == .invalidArgument, sourceLocation: sourceLocation)
        return error.message
    }

    @Test func theSpecExampleParses() throws {
        let policy = try parse("""
            { "rules": [
              { "app": "com.example.steps", "types": ["HKQuantityTypeIdentifierStepCount"], "share": "allow", "read": "limited", "from": "2026-01-01T00:00:00Z" },
              { "app": "*", "types": ["HKQuantityTypeIdentifierHeartRate"], "read": "limited", "last_days": 30 },
              { "app": "*", "types": ["*"], "share": "deny", "read": "deny" } ] }
            """)
        #expect(policy.ruleCount == 3)
    }

    @Test func aFromDateAfterTheMomentOfLoadingIsRefused() throws {
        let json = #"{ "rules": [ { "app": "*", "read": "limited", "from": "2026-02-01" } ] }"#
        let error = try #require(thrownError { _ = try ConsentPolicy(jsonData: bytes(json), now: jan2026) })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("rules[0].from"))
        #expect(error.message.contains("in the future"))
        // The same file loaded once the date has come is fine, and decides from that date.
        let policy = try ConsentPolicy(jsonData: bytes(json), now: jan2026 + 31 * day)
        #expect(policy.decide(appID: "a", share: [], read: [.stepCount], now: jan2026 + 40 * day)
            == [TypeDecision(type: .stepCount, read: .limited(fromMicros: jan2026 + 31 * day))])
        // Should the clock go back after loading, a decision is limited from now, never from later.
        #expect(policy.decide(appID: "a", share: [], read: [.stepCount], now: jan2026 + 20 * day)
            == [TypeDecision(type: .stepCount, read: .limited(fromMicros: jan2026 + 20 * day))])
    }

    @Test func theExampleFileParses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("docs/examples/consent-policy.json").path
        let data = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
        let policy = try ConsentPolicy(jsonData: Array(data))
        #expect(policy.ruleCount == 3)
        let decisions = policy.decide(appID: "com.example.steps", share: [.stepCount], read: [.stepCount, .heartRate], now: jan2026 + 40 * day)
        #expect(decisions == [
            TypeDecision(type: .heartRate, read: .limited(fromMicros: jan2026 + 10 * day)),
            TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: jan2026)),
        ])
    }

    @Test func emptyRulesParse() throws {
        #expect(try parse(#"{"rules": []}"#).ruleCount == 0)
    }

    @Test func typesMayBeOmittedAndEitherPartAlone() throws {
        #expect(try parse(#"{"rules": [{"app": "*", "share": "allow"}, {"app": "a", "read": "full"}]}"#).ruleCount == 2)
    }

    @Test(arguments: ["", "   ", "{", "[1,", "{\"rules\": [}", "nul"])
    func invalidJSONIsRejected(json: String) throws {
        #expect(try failure(json).contains("not valid JSON"))
    }

    @Test func topLevelMustBeAnObjectWithRules() throws {
        #expect(try failure("[]").contains("must be an object"))
        #expect(try failure("{}").contains("rules: is required"))
        #expect(try failure(#"{"rules": {}}"#).contains("rules: must be an array"))
        #expect(try failure(#"{"rules": [], "version": 1}"#).contains("version: unknown key"))
    }

    @Test func ruleMustBeAnObject() throws {
        #expect(try failure(#"{"rules": ["allow"]}"#).contains("rules[0]: must be an object"))
    }

    @Test func unknownRuleKeyIsNamedWithItsIndex() throws {
        let message = try failure(#"{"rules": [{"app": "*", "read": "full"}, {"app": "*", "share": "deny", "until": "x"}]}"#)
        #expect(message.contains("rules[1].until"))
        #expect(message.contains("unknown key"))
    }

    @Test func appIsRequiredNonEmptyString() throws {
        #expect(try failure(#"{"rules": [{"share": "deny"}]}"#).contains("rules[0].app: is required"))
        #expect(try failure(#"{"rules": [{"app": "", "share": "deny"}]}"#).contains("rules[0].app: must not be empty"))
        #expect(try failure(#"{"rules": [{"app": 3, "share": "deny"}]}"#).contains("rules[0].app: must be a string"))
    }

    @Test func unknownTypeIdentifiersAreNamed() throws {
        let message = try failure(#"{"rules": [{"app": "*", "types": ["HKQuantityTypeIdentifierStepCount", "HKNope", "*", "HKAlsoNope"], "read": "full"}]}"#)
        #expect(message.contains("rules[0].types"))
        #expect(message.contains("\"HKNope\""))
        #expect(message.contains("\"HKAlsoNope\""))
        #expect(!message.contains("StepCount"))
    }

    @Test func typesMustBeANonEmptyArrayOfStrings() throws {
        #expect(try failure(#"{"rules": [{"app": "*", "types": [], "read": "full"}]}"#).contains("rules[0].types: must not be empty"))
        #expect(try failure(#"{"rules": [{"app": "*", "types": "*", "read": "full"}]}"#).contains("rules[0].types: must be an array"))
        #expect(try failure(#"{"rules": [{"app": "*", "types": ["*", 4], "read": "full"}]}"#).contains("rules[0].types[1]: must be a string"))
    }

    @Test func shareValuesAreChecked() throws {
        let message = try failure(#"{"rules": [{"app": "*", "share": "full"}]}"#)
        #expect(message.contains("rules[0].share"))
        #expect(message.contains("\"full\""))
        #expect(try failure(#"{"rules": [{"app": "*", "share": true}]}"#).contains("rules[0].share"))
    }

    @Test func readValuesAreChecked() throws {
        let message = try failure(#"{"rules": [{"app": "*", "read": "allow"}]}"#)
        #expect(message.contains("rules[0].read"))
        #expect(message.contains("\"allow\""))
    }

    @Test func limitedNeedsExactlyOneOfFromAndLastDays() throws {
        #expect(try failure(#"{"rules": [{"app": "*", "read": "limited"}]}"#).contains("rules[0].read"))
        let both = try failure(#"{"rules": [{"app": "*", "read": "limited", "from": "2026-01-01", "last_days": 3}]}"#)
        #expect(both.contains("rules[0].from"))
        #expect(both.contains("not both"))
    }

    @Test func fromAndLastDaysOnlyWithLimited() throws {
        #expect(try failure(#"{"rules": [{"app": "*", "read": "full", "from": "2026-01-01"}]}"#).contains("rules[0].from: is only allowed"))
        #expect(try failure(#"{"rules": [{"app": "*", "share": "deny", "last_days": 3}]}"#).contains("rules[0].last_days: is only allowed"))
    }

    @Test(arguments: [#""yesterday""#, #""2026-02-30""#, #""2026-01-01T00:00:00+02:00""#, "20260101", #""1969-12-31""#])
    func badFromIsRejected(value: String) throws {
        #expect(try failure(#"{"rules": [{"app": "*", "read": "limited", "from": \#(value)}]}"#).contains("rules[0].from"))
    }

    @Test func fromAcceptsADateOrADateTime() throws {
        _ = try parse(#"{"rules": [{"app": "*", "read": "limited", "from": "2026-01-01"}]}"#)
        _ = try parse(#"{"rules": [{"app": "*", "read": "limited", "from": "2026-01-01T08:30:00Z"}]}"#)
        _ = try parse(#"{"rules": [{"app": "*", "read": "limited", "from": "1970-01-01"}]}"#)
    }

    @Test(arguments: ["0", "-3", "1.5", #""30""#, "true", "null", "106751992", "[30]", "{}"])
    func badLastDaysIsRejected(value: String) throws {
        #expect(try failure(#"{"rules": [{"app": "*", "read": "limited", "last_days": \#(value)}]}"#).contains("rules[0].last_days"))
    }

    @Test func lastDaysMayBeAnyWholeNumberSpelling() throws {
        // JSON does not distinguish 30 from 30.0 or 3e1: all are the whole number thirty.
        for spelling in ["30", "30.0", "3e1"] {
            let rules = try parse(#"{"rules": [{"app": "*", "read": "limited", "last_days": \#(spelling)}]}"#)
            #expect(rules.decide(appID: "a", share: [], read: [.stepCount], now: jan2026).first?.read == .limited(fromMicros: jan2026 - 30 * day))
        }
    }

    @Test func ruleMustDecideSomething() throws {
        #expect(try failure(#"{"rules": [{"app": "*", "types": ["*"]}]}"#).contains("rules[0]: decides nothing"))
    }

    @Test func errorsNameTheFailingRuleNotTheFirst() throws {
        let message = try failure(#"{"rules": [{"app": "*", "read": "full"}, {"app": "*", "read": "full"}, {"app": "*", "share": "maybe"}]}"#)
        #expect(message.contains("rules[2].share"))
    }
}
