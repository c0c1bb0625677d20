import Foundation
import BrokerWire
import Testing
@testable import HealthBrokerClient

@Suite("HealthStore and BrokerAdmin against a fake broker")
struct HealthStoreTests {
    @Test func connectSendsHelloAndKeepsTheSession() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "com.example.app", appToken: "secret")
        defer { store.close() }
        let hello = try #require(broker.calls.first)
        #expect(hello.callID == 1)
        #expect(hello.request == .hello(HelloRequest(appID: "com.example.app", appToken: "secret", protocolVersion: BrokerVersion.protocolVersion)))
        #expect(hello.timeoutMicros > 0)
        #expect(store.session == SessionInfo(
            brokerVersion: "9.9.9", protocolVersion: 1, maxFrameBytes: 4 << 20,
            brokerClock: Date(timeIntervalSince1970: 1_700_000_000.25), maxCallsInFlight: 128))
    }

    @Test func rejectedHelloSurfacesUnauthenticated() async throws {
        let broker = try FakeBroker()
        broker.refuseHello(with: BrokerError(code: .unauthenticated, domain: .unauthenticated, message: "unknown app"))
        do {
            _ = try await HealthStore.connect(socketPath: broker.socketPath, appID: "x", appToken: "y")
            Issue.record("connected")
        } catch {
            #expect(error == BrokerError(.unauthenticated, "unknown app"))
        }
    }

    @Test func noBrokerIsUnavailable() async {
        do {
            _ = try await HealthStore.connect(socketPath: "/tmp/no-such-dir-hb/app.sock", appID: "x", appToken: "y")
            Issue.record("connected")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("/tmp/no-such-dir-hb/app.sock"))
        }
    }

    @Test func pingEchoesAndConvertsTime() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        let reply = try await store.ping(payload: [1, 2, 3], delay: .milliseconds(5), timeout: .seconds(1))
        #expect(reply == PingReply(payload: [1, 2, 3], brokerTime: Date(timeIntervalSince1970: 1), sequence: 0))
        let call = try #require(broker.calls.last)
        #expect(call.request == .ping(PingRequest(delayMicros: 5_000, payload: [1, 2, 3])))
        #expect(call.timeoutMicros == 1_000_000)
    }

    @Test func pingWithCompletionRunsOffTheCaller() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        let result = await withCheckedContinuation { continuation in
            store.ping(payload: [8]) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().payload == [8])
    }

    @Test func wrongResponseCaseIsInternal() async throws {
        let broker = try FakeBroker { call in
            [ServerFrame(callID: call.callID, response: .hello(FakeBroker.helloResponse))]
        }
        let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
        defer { store.close() }
        do {
            _ = try await store.ping()
            Issue.record("no error")
        } catch {
            #expect(error.code == .internal)
        }
    }

    @Test func releasingTheStoreClosesTheConnection() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        do {
            let store = try await HealthStore.connect(socketPath: broker.socketPath, appID: "a", appToken: "t")
            _ = try await store.ping()
        }
        #expect(await broker.waitForClosedConnections(1))
    }

    @Test func adminCallsMapTheirResponses() async throws {
        let app = AppInfo(appID: "com.example", name: "Example", readUsage: "r", pinnedUID: 1000, createdMicros: 5, tokenRotatedMicros: 6)
        let info = BrokerInfo(brokerVersion: "1", startedMicros: 2, appConnections: 3, adminConnections: 4, callsServed: 5, dataDirectory: "/d", brokerTimeMicros: 7)
        let broker = try FakeBroker { call in
            let response: Proto.ServerFrame.Response? = switch call.request {
            case .adminAddApp: .adminAddApp(AppCredentials(app: app, token: "tok"))
            case .adminListApps: .adminListApps([app, app])
            case .adminRemoveApp(let remove): remove.appID == "com.example" ? .adminRemoveApp(connectionsClosed: 2) : nil
            case .adminRotateToken: .adminRotateToken(AppCredentials(app: app, token: "tok2"))
            case .adminBrokerInfo: .adminBrokerInfo(info)
            default: nil
            }
            if let response { return [ServerFrame(callID: call.callID, response: response)] }
            return [ServerFrame(callID: call.callID, status: Status(code: .notFound, message: "no such app"))]
        }
        let admin = try await BrokerAdmin.connect(socketPath: broker.socketPath)
        defer { admin.close() }
        #expect(try await admin.addApp(AppRegistration(appID: "com.example", name: "Example")) == AppCredentials(app: app, token: "tok"))
        #expect(try await admin.listApps() == [app, app])
        #expect(try await admin.removeApp("com.example") == 2)
        await #expect(throws: BrokerError.notFound("no such app")) { _ = try await admin.removeApp("other") }
        #expect(try await admin.rotateToken("com.example").token == "tok2")
        #expect(try await admin.brokerInfo() == info)
    }
}
