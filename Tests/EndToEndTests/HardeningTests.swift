import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Runs `executable` as the unprivileged user nobody (uid 65534) and returns its exit status and stderr.
func runAsNobody(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    await process.exited()
    return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}

/// A sibling executable of the daemon in the build folder.
func builtProduct(_ name: String) throws -> String {
    URL(fileURLWithPath: try DaemonProcess.binaryPath()).deletingLastPathComponent().appendingPathComponent(name).path
}

/// Hostile and slow clients, limits, impersonation, and a full disk.
@Suite("Hardening")
struct HardeningTests {
    @Test func connectionsOverThePerUIDLimitAreRefusedAndOthersKeepWorking() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--max-connections-per-uid", "3"])
        let credentials = try await daemon.registerApp("com.example.flood")
        var stores: [HealthStore] = []
        for _ in 0..<3 {
            stores.append(try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.flood", appToken: credentials.token))
        }
        let error = await #expect(throws: BrokerError.self) {
            _ = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.flood", appToken: credentials.token)
        }
        #expect(error?.code == .resourceExhausted)
        for store in stores { #expect(try await store.ping(payload: [1]).payload == [1]) }
        stores.removeLast().close()
        try await Task.sleep(for: .milliseconds(100))
        let again = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.flood", appToken: credentials.token)
        again.close()
        for store in stores { store.close() }
        #expect(daemon.log().contains("connection refused"))
    }

    @Test func aClientThatNeverReadsIsPausedThenCutOffWhileOthersAreServed() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--output-high-water", "65536", "--stall-timeout-ms", "700"])
        let credentials = try await daemon.registerApp("com.example.deaf")
        let bystander = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.deaf", appToken: credentials.token)
        defer { bystander.close() }
        // A raw client: Hello, then thousands of pings with 4 KiB payloads, never reading a reply.
        let client = try DeafClient(socket: daemon.appSocket, appID: "com.example.deaf", token: credentials.token)
        let fd = client.fd
        var frames: [UInt8] = []
        for id in 2..<2_000 {
            DeafClient.frame(.call(Call(callID: UInt64(id), request: .ping(PingRequest(payload: [UInt8](repeating: 7, count: 4_096))))), to: &frames)
        }
        // Keep writing until the broker has stopped reading for a while (its socket buffers stay full).
        let offset = try await client.pour(frames)
        #expect(offset < frames.count)
        // Everyone else is still served meanwhile.
        #expect(try await bystander.ping(payload: [5]).payload == [5])
        // Past the stall timeout (0.7 s, while we still read nothing) the broker hangs up on the deaf client.
        try await Task.sleep(for: .seconds(2))
        try await waitUntil(seconds: 10) {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { continue }
                return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            }
        }
        #expect(daemon.log().contains("connection closed with an error"))
        #expect(try await bystander.ping(payload: [6]).payload == [6])
    }

    @Test func anAppCannotQueueMoreThanItsShareOfAuthorizationRequests() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--max-queued-authorization-requests", "2"])
        let agent = try await ConsentAgentHarness(daemon: daemon)
        let store = try await daemon.connectApp("com.example.pushy")
        defer { store.close() }
        let first = Task { try await store.requestAuthorization(toShare: [], read: [.stepCount]) }
        let prompt = try await agent.prompt(0)
        let waiting = (0..<2).map { _ in Task { try await store.requestAuthorization(toShare: [], read: [.heartRate]) } }
        try await Task.sleep(for: .milliseconds(200))
        let error = await #expect(throws: BrokerError.self) {
            try await store.requestAuthorization(toShare: [], read: [.bodyMass], timeout: .seconds(5))
        }
        #expect(error?.code == .resourceExhausted)
        #expect(error?.domain == .requestPending)
        try await agent.answerAll(prompt, share: .allow, read: .full)
        try await first.value
        try await agent.answerAll(try await agent.prompt(1), share: .allow, read: .full)
        for task in waiting { try await task.value }
    }

    @Test func aPinnedAppIsRefusedFromAnotherUIDAndTheAdminSocketChecksThePeer() async throws {
        let daemon = try await DaemonProcess()
        let admin = try await daemon.admin()
        defer { admin.close() }
        let pinned = try await admin.addApp(AppRegistration(appID: "com.example.pinned", name: "Pinned", readUsage: "r", pinnedUID: 0))
        // Root (this test) may connect; nobody with the very same token may not.
        let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.pinned", appToken: pinned.token)
        store.close()
        chmod(daemon.directory, 0o755)
        let asNobody = try await runAsNobody(try builtProduct("ping-example"), ["--socket", daemon.appSocket, "--app-id", "com.example.pinned", "--token", pinned.token, "--count", "1"])
        #expect(asNobody.status != 0)
        #expect(asNobody.stderr.contains("UNAUTHENTICATED"))
        #expect(daemon.log().contains("pinned uid"))
        // Even with the admin socket's file mode opened up, the broker checks the peer uid.
        chmod(daemon.adminSocket, 0o666)
        let adminAsNobody = try await runAsNobody(try builtProduct("healthctl"), ["--admin-socket", daemon.adminSocket, "status"])
        #expect(adminAsNobody.status != 0)
        #expect(adminAsNobody.stderr.contains("PERMISSION_DENIED") || adminAsNobody.stderr.contains("may not use the admin socket"))
        #expect(daemon.log().contains("admin connection refused"))
    }

    @Test func aFullDiskIsDatabaseInaccessibleAndTheBrokerRecovers() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--max-db-pages", "80"], policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.full", types: [.stepCount])
        defer { store.close() }
        var saved: [Sample] = []
        var failure: BrokerError?
        for batch in 0..<200 {
            let samples = (0..<50).map { stepSample(base + Int64(batch * 50 + $0) * 1_000_000, base + Int64(batch * 50 + $0) * 1_000_000 + 1) }
            do {
                _ = try await store.save(samples)
                saved += samples
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.code == .unavailable)
        #expect(failure?.domain == .databaseInaccessible)
        // The broker keeps serving; it says it cannot tell request status while the store is failing.
        #expect(try await store.ping(payload: [1]).payload == [1])
        #expect(try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .unknown)
        // Nothing of the failed batch was written, and every acknowledged sample is there.
        #expect(try await store.collectCount() == saved.count)
        // Space returns (the app deletes old data): saving works again.
        _ = try await store.delete(Array(saved.prefix(saved.count / 2).map(\.uuid)))
        #expect(try await store.save([stepSample(base - hour, base - hour + 1)]).saved == 1)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]) == .unnecessary)
    }

    @Test func sigtermUnderLoadFinishesOrFailsEveryCallAndExitsCleanly() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--shutdown-grace-ms", "2000"])
        let credentials = try await daemon.registerApp("com.example.busy")
        var stores: [HealthStore] = []
        for _ in 0..<4 {
            stores.append(try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.busy", appToken: credentials.token))
        }
        let outcomes = OrderLog()
        let busyStores = stores
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for store in busyStores {
                    for index in 0..<200 {
                        group.addTask {
                            do {
                                _ = try await store.ping(delay: .milliseconds(Int64(index % 10) * 50), timeout: .seconds(10))
                                outcomes.append("ok")
                            } catch let error as BrokerError {
                                outcomes.append(error.code.description)
                            } catch {
                                outcomes.append("other")
                            }
                        }
                    }
                }
            }
        }
        // Signal once the load is flowing (some calls already answered), with most still in flight.
        try await waitUntil(seconds: 30) { outcomes.entries.contains("ok") }
        kill(daemon.pid, SIGTERM)
        await load.value
        #expect(try await daemon.stop() == 0)
        let entries = outcomes.entries
        #expect(entries.count == 800)
        // Every call ended: answered, or refused/ended as UNAVAILABLE; nothing else.
        #expect(entries.allSatisfy { $0 == "ok" || $0 == "UNAVAILABLE" })
        #expect(entries.contains("ok"))
        #expect(!FileManager.default.fileExists(atPath: daemon.appSocket))
        for store in stores { store.close() }
    }

    @Test func badRequestsAreInvalidArgumentsNamingTheFieldAndChangeNothing() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.fuzzy", types: [.stepCount, .heartRate])
        defer { store.close() }
        func code(_ body: () async throws -> Void) async -> (StatusCode?, String) {
            do {
                try await body()
                return (nil, "")
            } catch let error as BrokerError {
                return (error.code, error.message)
            } catch {
                return (nil, "\(error)")
            }
        }
        let nan = Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: base, endMicros: base, value: .quantity(Quantity(.nan, "count/min")))
        let infinite = Sample(uuid: UUID().uuidString.lowercased(), type: .stepCount, startMicros: base, endMicros: base, value: .quantity(Quantity(.infinity, "count")))
        let hugeMetadata = Sample(uuid: UUID().uuidString.lowercased(), type: .stepCount, startMicros: base, endMicros: base, value: .quantity(Quantity(1, "count")), metadata: ["note": String(repeating: "x", count: 100_000)])
        let wrongUnit = Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: base, endMicros: base, value: .quantity(Quantity(60, "kg")))
        let cases: [(String, () async throws -> Void)] = [
            ("samples[0]", { _ = try await store.save([nan]) }),
            ("samples[0]", { _ = try await store.save([infinite]) }),
            ("samples[0]", { _ = try await store.save([hugeMetadata]) }),
            ("samples[0]", { _ = try await store.save([wrongUnit]) }),
            ("HKQuantityTypeIdentifierNope", { _ = try await collect(store.samples(of: ObjectType("HKQuantityTypeIdentifierNope"))) }),
            ("start", { _ = try await collect(store.samples(of: .stepCount, predicate: SamplePredicate(startMicros: base, endMicros: base - 1))) }),
            ("page_size", { _ = try await collect(store.samples(of: .stepCount, pageSize: 1_000_000)) }),
            ("types", { try await store.requestAuthorization(toShare: [], read: Set((0..<300).map { ObjectType("HKQuantityTypeIdentifier\($0)") })) }),
            ("unit", { _ = try await collect(store.samples(of: .stepCount, unit: "parsecs")) }),
        ]
        for (field, body) in cases {
            let (status, message) = await code(body)
            #expect(status == .invalidArgument, "\(field): \(message)")
            #expect(message.lowercased().contains(field.lowercased()) || !message.isEmpty, "\(field): \(message)")
        }
        #expect(try await store.collectCount() == 0)
        #expect(try await store.ping(payload: [1]).payload == [1])
    }
}
