import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// The app registry over the admin socket.
@Suite("Admin registry")
struct AdminTests {
    @Test func addingTheSameAppTwiceIsAlreadyExists() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp("com.example.dup")
        let error = await #expect(throws: BrokerError.self) { _ = try await daemon.registerApp("com.example.dup") }
        #expect(error?.code == .alreadyExists)
    }

    @Test func invalidRegistrationsAreInvalidArgument() async throws {
        let daemon = try await DaemonProcess()
        let admin = try await daemon.admin()
        defer { admin.close() }
        for id in ["", "has space", String(repeating: "a", count: 129), "emoji🙂"] {
            let error = await #expect(throws: BrokerError.self) {
                _ = try await admin.addApp(AppRegistration(appID: id, name: "x"))
            }
            #expect(error?.code == .invalidArgument)
        }
        let error = await #expect(throws: BrokerError.self) {
            _ = try await admin.addApp(AppRegistration(appID: "com.example.noname", name: ""))
        }
        #expect(error?.code == .invalidArgument)
        #expect(try await admin.listApps().isEmpty)
    }

    @Test func rotatingATokenRetiresTheOldOne() async throws {
        let daemon = try await DaemonProcess()
        let old = try await daemon.registerApp("com.example.rotate")
        let admin = try await daemon.admin()
        defer { admin.close() }
        let new = try await admin.rotateToken("com.example.rotate")
        #expect(new.token != old.token)
        let error = await #expect(throws: BrokerError.self) {
            _ = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.rotate", appToken: old.token)
        }
        #expect(error?.code == .unauthenticated)
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.rotate", appToken: new.token)
        store.close()
        let missing = await #expect(throws: BrokerError.self) { _ = try await admin.rotateToken("com.example.none") }
        #expect(missing?.code == .notFound)
    }

    @Test func removingAnAppClosesItsConnections() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.gone")
        defer { store.close() }
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.removeApp("com.example.gone") == 1)
        try await waitUntil { store.connection.isClosed }
        #expect(try await admin.listApps().isEmpty)
        let missing = await #expect(throws: BrokerError.self) { _ = try await admin.removeApp("com.example.gone") }
        #expect(missing?.code == .notFound)
    }

    @Test func brokerInfoCountsConnections() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.counted")
        defer { store.close() }
        let admin = try await daemon.admin()
        defer { admin.close() }
        let info = try await admin.brokerInfo()
        #expect(info.appConnections == 1)
        #expect(info.adminConnections == 1)
        #expect(info.dataDirectory == daemon.dataDirectory)
        #expect(!info.powerLossDurable)
        #expect(info.walFsyncs == 0)
    }

    @Test func brokerInfoSaysWhenResultsWaitForAWALFsync() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--synchronous-full"], policy: allowAll)
        let writer = try await authorizedApp(daemon, "com.example.durable", types: [.stepCount])
        defer { writer.close() }
        let admin = try await daemon.admin()
        defer { admin.close() }
        let before = try await admin.brokerInfo()
        #expect(before.powerLossDurable)
        // The save is acknowledged only after an fsync that began after its commit.
        #expect(try await writer.save([stepSample(base, base + hour)]).saved == 1)
        let after = try await admin.brokerInfo()
        #expect(after.walFsyncs > before.walFsyncs)
        #expect(after.powerLossDurable)
    }
}

/// Removing an app keeps its samples unless asked to delete them.
@Suite("Admin removal and data")
struct AdminRemovalTests {
    @Test func removingAnAppKeepsItsSamplesUnlessDeleteDataIsGiven() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let keeper = try await authorizedApp(daemon, "com.example.keeper", types: [.stepCount])
        let wiped = try await authorizedApp(daemon, "com.example.wiped", types: [.stepCount])
        let reader = try await authorizedApp(daemon, "com.example.reader", types: [.stepCount])
        defer { reader.close() }
        _ = try await keeper.save([stepSample(base, base + hour)])
        _ = try await wiped.save([stepSample(base + hour, base + 2 * hour), stepSample(base + 2 * hour, base + 3 * hour)])
        keeper.close()
        wiped.close()
        let admin = try await daemon.admin()
        defer { admin.close() }
        _ = try await admin.removeApp("com.example.keeper")
        _ = try await admin.removeApp("com.example.wiped", deleteData: true)
        let left = try await collect(reader.samples(of: .stepCount))
        #expect(left.map(\.sourceAppID) == ["com.example.keeper"])
        #expect(try await admin.grants(for: "com.example.reader").count == 1)
    }
}
