@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// The policy file names types as healthctl does: full identifiers or aliases, any case.
@Suite("ConsentPolicy type names")
struct ConsentPolicyTypeNamesTests {
    let now = jan2026 + 100 * day

    func failure(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let error = try #require(thrownError { _ = try ConsentPolicy(jsonData: bytes(json)) }, sourceLocation: sourceLocation)
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        return error.message
    }

    @Test func aliasesDecideTheirTypes() throws {
        let policy = try ConsentPolicy(jsonData: bytes(#"""
            {"rules": [{"app": "*", "types": ["stepCount", "HEARTRATE", "workout", "HKCategoryTypeIdentifierSleepAnalysis"], "read": "full"}]}
            """#))
        let decisions = policy.decide(appID: "a", share: [], read: [.stepCount, .heartRate, .workout, .sleepAnalysis, .bodyMass], now: now)
        #expect(decisions == [
            TypeDecision(type: .sleepAnalysis, read: .full),
            TypeDecision(type: .heartRate, read: .full),
            TypeDecision(type: .stepCount, read: .full),
            TypeDecision(type: .workout, read: .full),
        ].sorted { $0.type < $1.type })
    }

    @Test(arguments: TypeCatalogue.all.map(\.type))
    func everyNameHealthctlListsIsAccepted(type: ObjectType) throws {
        for name in [type.identifier, TypeCatalogue.alias(of: type), TypeCatalogue.alias(of: type).uppercased()] {
            let policy = try ConsentPolicy(jsonData: bytes(#"{"rules": [{"app": "a", "types": ["\#(name)"], "share": "deny"}]}"#))
            #expect(policy.decide(appID: "a", share: TypeCatalogue.all.map(\.type), read: [], now: now)
                == [TypeDecision(type: type, share: .deny)], "\(name)")
        }
    }

    @Test func anAliasAndItsIdentifierInOneRuleAreOneType() throws {
        let policy = try ConsentPolicy(jsonData: bytes(#"{"rules": [{"app": "a", "types": ["stepCount", "HKQuantityTypeIdentifierStepCount"], "share": "allow"}]}"#))
        #expect(policy.decide(appID: "a", share: [.stepCount], read: [], now: now) == [TypeDecision(type: .stepCount, share: .allow)])
    }

    @Test func anUnknownNameIsNamedWithTheRuleAndAHint() throws {
        let message = try failure(#"""
            {"rules": [{"app": "*", "share": "deny"}, {"app": "com.example.steps", "types": ["heartRate", "stepz"], "read": "full"}]}
            """#)
        #expect(message.contains("rules[1].types[1]:"), "\(message)")
        #expect(message.contains("unknown type \"stepz\""), "\(message)")
        #expect(message.contains("did you mean stepCount?"), "\(message)")
        #expect(message.contains("app \"com.example.steps\""), "\(message)")
        #expect(message.contains("healthctl types"), "\(message)")
    }

    @Test func aWrongPrefixIsNotAnAlias() throws {
        // The alias drops the whole prefix: a category prefix on a quantity type names nothing.
        let message = try failure(#"{"rules": [{"app": "*", "types": ["HKCategoryTypeIdentifierStepCount"], "read": "full"}]}"#)
        #expect(message.contains("rules[0].types[0]: unknown type \"HKCategoryTypeIdentifierStepCount\""), "\(message)")
    }
}
