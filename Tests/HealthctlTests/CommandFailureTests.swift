import BrokerModel
@testable import healthctl
import Testing

@Suite struct CommandFailureTests {
    @Test func unreachableBrokerHintsAtTheDaemonAndSocket() {
        let failure = CommandFailure(connecting: BrokerError(code: .unavailable, message: "connect: No such file"), socket: "/run/a.sock")
        #expect(failure.lines == ["cannot reach the broker: connect: No such file", "is healthbrokerd running? socket: /run/a.sock"])
    }

    @Test func refusedConnectionHintsAtTheUser() {
        let failure = CommandFailure(connecting: BrokerError(code: .permissionDenied, message: "uid 1001 refused"), socket: "/s")
        #expect(failure.lines.count == 2)
        #expect(failure.lines[0] == "uid 1001 refused")
        #expect(failure.lines[1].contains("--admin-uid"))
        #expect(failure.lines[1].hasSuffix("socket: /s"))
    }

    @Test func otherConnectionErrorsAreShownAsIs() {
        let error = BrokerError(code: .internal, message: "boom")
        #expect(CommandFailure(connecting: error, socket: "/s").lines == [error.description])
    }

    @Test func callsThatLoseTheBrokerHintAtIt() {
        let lost = CommandFailure(calling: BrokerError(code: .unavailable, message: "closed"), socket: "/s")
        #expect(lost.lines == ["UNAVAILABLE: closed", "is healthbrokerd running? socket: /s"])
    }

    @Test func aBrokerShuttingDownNeedsNoHint() {
        let error = BrokerError(.brokerShuttingDown, "bye")
        #expect(CommandFailure(calling: error, socket: "/s").lines == [error.description])
    }

    @Test func otherCallErrorsAreShownAsIs() {
        let error = BrokerError.notFound("no app x")
        #expect(CommandFailure(calling: error, socket: "/s").lines == ["NOT_FOUND: no app x"])
    }

    @Test func reportPrefixesEveryLine() {
        #expect(CommandFailure(["first", "second"]).report(program: "healthctl") == "healthctl: first\nhealthctl: second\n")
    }
}
