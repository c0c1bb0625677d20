import CommandLineSupport
import Testing

@Suite struct TypedValueTests {
    @Test func integersParse() throws {
        let command = try parse(["--clients", "16", "--limit", "9000000000", "--anchor", "4000000000", "app"])
        #expect(try command.int("clients") == 16)
        #expect(try command.int64("limit") == 9_000_000_000)
        #expect(try command.uint32("anchor") == 4_000_000_000)
    }

    @Test func absentValuesAreNil() throws {
        let command = try parse(["app"])
        #expect(try command.int("rate") == nil)
        #expect(try command.double("rate") == nil)
        #expect(try command.uint32("anchor") == nil)
    }

    @Test func defaultsParseToo() throws {
        let command = try parse(["app"])
        #expect(try command.int("clients") == 4)
    }

    @Test func doublesParse() throws {
        let command = try parse(["--rate", "2.5", "--offset", "-0.25", "app"])
        #expect(try command.double("rate") == 2.5)
        #expect(try command.double("offset") == -0.25)
    }

    @Test func malformedIntegerNamesTheOption() throws {
        let command = try parse(["--clients", "many", "app"])
        let error = #expect(throws: ArgumentError.self) { try command.int("clients") }
        #expect(error?.kind == .invalidValue)
        #expect(error?.message == "invalid value 'many' for option '--clients': expected an integer")
        #expect(error?.command == "healthload")
    }

    @Test func integerOutOfTheTypeRange() throws {
        let command = try parse(["--limit", "99999999999999999999", "--anchor", "-1", "app"])
        let tooBig = #expect(throws: ArgumentError.self) { try command.int64("limit") }
        #expect(tooBig?.message.hasPrefix("invalid value '99999999999999999999' for option '--limit': out of range") == true)
        let negative = #expect(throws: ArgumentError.self) { try command.uint32("anchor") }
        #expect(
            negative?.message
                == "invalid value '-1' for option '--anchor': out of range (expected a whole number from 0 to 4294967295)")
    }

    @Test func integerOutsideACallerRange() throws {
        let command = try parse(["--clients", "0", "app"])
        let error = #expect(throws: ArgumentError.self) { try command.int("clients", in: 1...64) }
        #expect(error?.message == "invalid value '0' for option '--clients': out of range (expected an integer from 1 to 64)")
    }

    @Test func malformedDoubleAndNonFiniteDouble() throws {
        let command = try parse(["--rate", "fast", "--offset", "inf", "app"])
        let malformed = #expect(throws: ArgumentError.self) { try command.double("rate") }
        #expect(malformed?.message == "invalid value 'fast' for option '--rate': expected a number")
        let infinite = #expect(throws: ArgumentError.self) { try command.double("offset") }
        #expect(infinite?.message == "invalid value 'inf' for option '--offset': expected a finite number")
    }

    @Test func errorNamesTheEnvironmentVariableWhenTheValueCameFromThere() throws {
        let command = try parse(["app"], environment: ["HEALTHLOAD_LIMIT": "lots"])
        let error = #expect(throws: ArgumentError.self) { try command.int64("limit") }
        #expect(
            error?.message
                == "invalid value 'lots' for option '--limit' (from environment variable HEALTHLOAD_LIMIT): expected an integer")
    }

    @Test func typedGettersReadPositionalsByName() throws {
        let spec = CommandSpec(
            "repeat", summary: "Repeat.", positionals: [PositionalSpec("COUNT", help: "How many times.")])
        #expect(try parse(["3"], spec).int("COUNT") == 3)
        let command = try parse(["three"], spec)
        let error = #expect(throws: ArgumentError.self) { try command.int("COUNT") }
        #expect(error?.message == "invalid value 'three' for argument 'COUNT': expected an integer")
    }

    @Test func choicesMatchRawValues() throws {
        #expect(try parse(["--format", "json", "app"]).choice("format", as: Fixtures.Format.self) == .json)
        let command = try parse(["--format", "xml", "app"])
        let error = #expect(throws: ArgumentError.self) { try command.choice("format", as: Fixtures.Format.self) }
        #expect(error?.message == "invalid value 'xml' for option '--format': expected one of text, json")
    }

    @Test func customConversion() throws {
        let command = try parse(["--format", "a,b", "app"])
        let parts = try command.value("format", expected: "a comma-separated list") { $0.split(separator: ",") }
        #expect(parts == ["a", "b"])
    }

    @Test func requiredStringThrowsWhenUnset() throws {
        let command = try parse(["app"])
        #expect(try command.requiredString("token") == "dev-token")
        let error = #expect(throws: ArgumentError.self) { try command.requiredString("format") }
        #expect(error?.kind == .missingOption)
        #expect(error?.message == "missing required option '--format FORMAT'")
        let limit = #expect(throws: ArgumentError.self) { try command.requiredString("limit") }
        #expect(limit?.message == "missing required option '--limit N' (or set HEALTHLOAD_LIMIT)")
    }
}
