import BrokerModel
import CommandLineSupport
@testable import healthctl
import Testing

@Suite struct HealthctlSpecTests {
    static func parse(_ arguments: [String]) throws -> ParsedCommand {
        try #require(try ArgumentParser.parse(arguments, spec: HealthctlSpec.spec, environment: [:]).command)
    }

    @Test func revokeTakesAnAppAndAnyNumberOfTypes() throws {
        let all = try Self.parse(["revoke", "demo.steps"])
        #expect(all.path == ["revoke"])
        #expect(all.positionals("TYPE").isEmpty)
        let some = try Self.parse(["revoke", "demo.steps", "stepCount", "heartrate"])
        #expect(some.positional("APP_ID") == "demo.steps")
        #expect(some.positionals("TYPE") == ["stepCount", "heartrate"])
    }

    /// Without --batch, lines go 1000 to a call and an Apple Health export 10000 (the option has no
    /// default of its own, which would always be given and hide the export's).
    @Test func importBatchSizesDefaultPerFormat() throws {
        let plain = try Self.parse(["import", "export.zip"])
        #expect(try ImportCommand.batchSize(plain, appleHealth: false) == 1_000)
        #expect(try ImportCommand.batchSize(plain, appleHealth: true) == 10_000)
        let given = try Self.parse(["import", "export.zip", "--batch", "250"])
        #expect(try ImportCommand.batchSize(given, appleHealth: true) == 250)
        #expect(throws: ArgumentError.self) { try ImportCommand.batchSize(try Self.parse(["import", "a.jsonl", "--batch", "10001"]), appleHealth: false) }
    }

    @Test func characteristicsSetAndClear() throws {
        let set = try Self.parse(["characteristics", "set", "dateOfBirth", "1990-04-01"])
        #expect(set.path == ["characteristics", "set"])
        #expect(set.positional("VALUE") == "1990-04-01")
        #expect(try CharacteristicsCommands.characteristicType(set) == .dateOfBirth)
        let clear = try Self.parse(["characteristics", "clear", "bloodtype"])
        #expect(try CharacteristicsCommands.characteristicType(clear) == .bloodType)
    }

    @Test func characteristicsRefuseOtherTypes() throws {
        let command = try Self.parse(["characteristics", "set", "stepCount", "5"])
        let error = #expect(throws: ArgumentError.self) { _ = try CharacteristicsCommands.characteristicType(command) }
        #expect(error?.message == "'stepCount' is not a characteristic type (characteristics: dateOfBirth, biologicalSex, bloodType, fitzpatrickSkinType, wheelchairUse, activityMoveMode)")
    }

    @Test func consentOptions() throws {
        let interactive = try Self.parse(["consent"])
        #expect(interactive.string("policy") == nil)
        #expect(!interactive.flag("once"))
        let policy = try Self.parse(["consent", "--policy", "p.json", "--once"])
        #expect(policy.string("policy") == "p.json")
        #expect(policy.flag("once"))
    }

    @Test func sourcesPriorityTakesATypeAndAnyNumberOfApps() throws {
        let shown = try Self.parse(["sources", "priority", "stepCount"])
        #expect(shown.path == ["sources", "priority"])
        #expect(shown.positional("TYPE") == "stepCount")
        #expect(shown.positionals("APP_ID") == [])
        let set = try Self.parse(["sources", "priority", "stepCount", "com.example.watch", "com.example.phone", "--json"])
        #expect(set.positionals("APP_ID") == ["com.example.watch", "com.example.phone"])
        #expect(set.flag("json"))
        #expect(try Self.parse(["sources", "priority", "stepCount", "--clear"]).flag("clear"))
        #expect(throws: ArgumentError.self) { try Self.parse(["sources", "priority"]) }
        // 'sources' alone still lists the sources.
        #expect(try Self.parse(["sources", "--json"]).path == ["sources"])
    }

    @Test func explainGrantsSourcesTypesParse() throws {
        #expect(try Self.parse(["explain", "a", "stepCount"]).positional("TYPE") == "stepCount")
        #expect(try Self.parse(["grants", "a", "--json"]).flag("json"))
        #expect(try Self.parse(["sources"]).path == ["sources"])
        #expect(try Self.parse(["types"]).path == ["types"])
    }

    @Test func explainNeedsBothArguments() {
        let error = #expect(throws: ArgumentError.self) { _ = try ArgumentParser.parse(["explain", "a"], spec: HealthctlSpec.spec, environment: [:]) }
        #expect(error?.kind == .missingArgument)
    }
}
