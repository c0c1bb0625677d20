import BrokerModel
import BrokerSupport
@testable import healthbrokerd
import Testing

/// Reading LISTEN_PID / LISTEN_FDS / LISTEN_FDNAMES as sd_listen_fds(3) does.
@Suite struct SocketActivationTests {
    let pid: Int32 = 4242

    func activation(_ environment: [String: String]) throws(BrokerError) -> SocketActivation {
        try SocketActivation(environment: environment, pid: pid)
    }

    @Test func nothingPassedWithoutTheVariables() throws {
        #expect(try activation([:]).isEmpty)
        #expect(try activation(["LISTEN_FDS": "2"]).isEmpty)
    }

    @Test func variablesForAnotherProcessAreIgnored() throws {
        #expect(try activation(["LISTEN_PID": "1", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "app:admin"]).isEmpty)
        #expect(try activation(["LISTEN_PID": "not a pid", "LISTEN_FDS": "2"]).isEmpty)
    }

    @Test func withoutNamesTheFirstIsAppAndTheSecondAdmin() throws {
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "2"]) == SocketActivation(appSocket: 3, adminSocket: 4))
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "1"]) == SocketActivation(appSocket: 3))
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "0"]).isEmpty)
    }

    @Test func namesPickWhichIsWhich() throws {
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "admin:app"]) == SocketActivation(appSocket: 4, adminSocket: 3))
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "app:admin"]) == SocketActivation(appSocket: 3, adminSocket: 4))
    }

    @Test func onlyOneSocketPassedLeavesTheOtherToBeBound() throws {
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "admin"]) == SocketActivation(adminSocket: 3))
        #expect(try activation(["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "app"]) == SocketActivation(appSocket: 3))
    }

    @Test(arguments: [
        ["LISTEN_PID": "4242", "LISTEN_FDS": "two"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "-1"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "3"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "app"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "app:app"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "healthbrokerd.socket:healthbrokerd-admin.socket"],
    ])
    func variablesThatCannotBeFollowedAreRefused(environment: [String: String]) {
        let error = #expect(throws: BrokerError.self) { try activation(environment) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.hasPrefix("socket activation: ") == true)
    }
}
