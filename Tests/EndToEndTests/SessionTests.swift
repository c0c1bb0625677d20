import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Hello: who may open an app session, and what the broker says when it does.
@Suite("Session")
struct SessionTests {
    @Test func helloIsAcceptedAndReportsBrokerLimitsAndClock() async throws {
        let daemon = try await DaemonProcess()
        let before = Date()
        let store = try await daemon.connectApp("com.example.hello")
        defer { store.close() }
        #expect(store.session.protocolVersion == 1)
        #expect(store.session.maxFrameBytes == 4 * 1024 * 1024)
        #expect(store.session.maxCallsInFlight == 4_096)
        #expect(!store.session.brokerVersion.isEmpty)
        let after = Date()
        // The broker's clock was read between our two readings (same machine; 1 s slack for rounding).
        #expect(store.session.brokerClock >= before.addingTimeInterval(-1))
        #expect(store.session.brokerClock <= after.addingTimeInterval(1))
        let reply = try await store.ping(payload: [1, 2, 3])
        #expect(reply.payload == [1, 2, 3])
    }

    @Test func helloWithAWrongTokenIsUnauthenticatedAndClosesTheConnection() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp("com.example.victim")
        let error = await #expect(throws: BrokerError.self) {
            _ = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.victim", appToken: "hbt_wrong")
        }
        #expect(error?.code == .unauthenticated)
        #expect(error?.domain == .unauthenticated)
        // The log says why; it never holds the presented token.
        #expect(daemon.log().contains("wrong token"))
        #expect(!daemon.log().contains("hbt_wrong"))
    }

    @Test func helloForAnUnknownAppIsUnauthenticated() async throws {
        let daemon = try await DaemonProcess()
        let error = await #expect(throws: BrokerError.self) {
            _ = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.nobody", appToken: "hbt_x")
        }
        #expect(error?.code == .unauthenticated)
        #expect(error?.message == "unknown app or wrong token")
    }

    @Test func aCallBeforeHelloIsUnauthenticatedAndClosesTheConnection() async throws {
        let daemon = try await DaemonProcess()
        let connection = try BrokerConnection.connect(socketPath: daemon.appSocket)
        defer { connection.close() }
        let error = await #expect(throws: BrokerError.self) {
            _ = try await connection.unary(.ping(PingRequest().proto), timeout: .seconds(5))
        }
        #expect(error?.code == .unauthenticated)
        try await waitUntil { connection.isClosed }
    }

    @Test func adminMethodsAreRefusedOnTheAppSocket() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.sneaky")
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) {
            _ = try await store.connection.unary(.adminListApps(.init()), timeout: .seconds(5))
        }
        #expect(error?.code == .permissionDenied)
        // The refusal affects only that call.
        _ = try await store.ping()
    }

    @Test func aSecondHelloOnTheSameConnectionIsRefused() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.twice")
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.twice", appToken: credentials.token)
        defer { store.close() }
        let hello = HelloRequest(appID: "com.example.twice", appToken: credentials.token, protocolVersion: 1)
        let error = await #expect(throws: BrokerError.self) {
            _ = try await store.connection.unary(.hello(hello.proto), timeout: .seconds(5))
        }
        #expect(error?.code == .failedPrecondition)
    }

    @Test func anUnknownMethodIsUnimplemented() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.future")
        let client = try RawWireClient(path: daemon.appSocket)
        try client.hello(appID: "com.example.future", token: credentials.token)
        // A call with no request case this build knows (a newer client's method).
        try client.sendMessage(Proto.ClientFrame.with { $0.kind = .call(.with { $0.callID = 2 }) }.encoded())
        let reply = try #require(try client.next())
        #expect(reply.callID == 2)
        #expect(reply.status?.code == .unimplemented)
        // The refusal affects only that call.
        try client.call(3, .ping(PingRequest()))
        let pong = try #require(try client.next())
        #expect(pong.callID == 3 && pong.status == nil)
    }
}

/// Polls `condition` every 10 ms for up to `seconds` of this task's scheduled time
/// (`ScheduledDeadline`); fails the test when it never holds.
func waitUntil(seconds: Double = 30, _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    var deadline = ScheduledDeadline(seconds: seconds)
    while !condition() {
        if deadline.hasPassed() {
            if condition() { return }
            Issue.record("condition did not hold within \(seconds) s", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
