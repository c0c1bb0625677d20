@testable import BrokerServer
import BrokerModel
import BrokerTransport
import BrokerWire
import Foundation
import Testing

/// Sessions and calls at the door: Hello, socket placement, the admin peer check, call ids.
@Suite("Broker sessions, in process")
struct SessionTests {
    @Test func helloThenPingRoundTrips() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.ping")
        let frames = try harness.call(.ping(PingRequest(payload: [1, 2, 3])), id: 2, on: app)
        #expect(frames.count == 1)
        #expect(frames.first?.status == nil)
        guard case .ping(let reply) = frames.first?.response else {
            Issue.record("not a ping reply: \(frames)")
            return
        }
        #expect(reply.payload == [1, 2, 3])
        #expect(reply.brokerTimeMicros > 0)
        #expect(!app.isClosed)
    }

    @Test func aCallBeforeHelloIsAnsweredOnItsOwnIDAndTheConnectionCloses() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = harness.connect(.app)
        let frames = try harness.call(.ping(PingRequest()), id: 7, on: app)
        #expect(frames.count == 1)
        #expect(frames.first?.status?.code == .unauthenticated)
        #expect(harness.run(until: { app.isClosed }))
        #expect(harness.broker.sessions.isEmpty)
    }

    @Test func aWrongTokenIsRefusedOnTheHelloID() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        _ = try harness.register("com.example.app")
        let app = harness.connect(.app)
        let hello = HelloRequest(appID: "com.example.app", appToken: "not-the-token", protocolVersion: BrokerVersion.protocolVersion)
        let frames = try harness.call(.hello(hello), id: 3, on: app)
        #expect(frames.map(\.status?.code) == [.unauthenticated])
        #expect(harness.run(until: { app.isClosed }))
    }

    @Test func anAdminMethodOnTheAppSocketIsPermissionDenied() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.curious")
        let frames = try harness.call(.adminListApps, id: 2, on: app)
        #expect(frames.count == 1)
        #expect(frames.first?.status?.code == .permissionDenied)
        // Refused at the door: the session goes on.
        let ping = try harness.call(.ping(PingRequest()), id: 3, on: app)
        #expect(ping.first?.status == nil)
        #expect(!app.isClosed)
    }

    @Test func anAdminPeerOfAnotherUIDIsRefused() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let stranger = PeerCredentials(pid: 1, uid: geteuid() &+ 4_242, gid: 0)
        let admin = harness.connect(.admin, peer: stranger)
        #expect(harness.run(until: { admin.isClosed }))
        let frames = try admin.takeFrames()
        #expect(frames.map(\.callID) == [0])
        #expect(frames.first?.status?.code == .permissionDenied)
        #expect(harness.broker.adminConnections == 0)
    }

    @Test func aCallIDAlreadyInFlightClosesTheConnection() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.twice")
        app.receive(.call(Call(callID: 5, request: .ping(PingRequest(delayMicros: 1_000_000)))))
        app.receive(.call(Call(callID: 5, request: .ping(PingRequest()))))
        #expect(harness.run(until: { app.isClosed }))
        let frames = try app.takeFrames()
        #expect(frames.map(\.callID) == [0])
        #expect(frames.first?.status?.code == .invalidArgument)
        // The delayed call ended with the connection, holding nothing.
        #expect(app.heldBytes == 0)
        #expect(harness.broker.sessions.isEmpty)
    }
}
