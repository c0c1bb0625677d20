import CommandLineSupport
@testable import healthload
import Testing

/// The command line: defaults, environment, and refusals.
@Suite("Options")
struct LoadOptionsTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> LoadOptions {
        let outcome = try ArgumentParser.parse(arguments, spec: LoadSpec.spec, environment: environment)
        return try LoadOptions(try #require(outcome.command))
    }

    @Test func flagsAndShortNamesAreRead() throws {
        let options = try parse(["-c", "4", "-d", "64", "--duration", "2.5", "--warmup", "0", "--op", "ping:8,save:1", "--batch", "7",
                                  "--json", "/tmp/r.json", "--svg", "/tmp/r.svg", "--verify", "--broker-pid", "123"])
        #expect(options.connections == 4)
        #expect(options.effectiveDepth == 64)
        #expect(options.durationSeconds == 2.5)
        #expect(options.warmupSeconds == 0)
        #expect(options.mix.description == "ping:8,save:1")
        #expect(options.saveBatch == 7)
        #expect(options.jsonPath == "/tmp/r.json")
        #expect(options.svgPath == "/tmp/r.svg")
        #expect(options.verify)
        #expect(options.brokerPID == 123)
        #expect(options.rate == nil)
        #expect(options.needsAuthorization)
    }

    @Test func socketsComeFromTheEnvironmentLikeHealthctl() throws {
        let options = try parse([], environment: ["HEALTHBROKER_APP_SOCKET": "/e/app.sock", "HEALTHBROKER_ADMIN_SOCKET": "/e/admin.sock"])
        #expect(options.socketPath == "/e/app.sock")
        #expect(options.adminSocketPath == "/e/admin.sock")
        #expect(options.effectiveDepth == 1)
        #expect(options.mix.operations == [.ping])
        #expect(!options.needsAuthorization)
    }

    @Test func openLoopDefaultsToADeepCap() throws {
        let options = try parse(["--rate", "5000", "-c", "2"])
        #expect(options.rate == 5_000)
        #expect(options.effectiveDepth == 1_024)
        #expect(options.appIDs == ["healthload.1"])
    }

    @Test func badValuesAreUsageErrors() {
        for arguments in [["--op", "pong"], ["-c", "0"], ["--duration", "-1"], ["--rate", "0"], ["--depth", "x"]] {
            #expect(throws: ArgumentError.self) { try parse(arguments) }
        }
    }
}
