import Foundation
@testable import healthload
import HealthBrokerClient
import TestSupport
import Testing

/// healthload's runner against a real daemon: the counts must add up.
@Suite("healthload end to end", .serialized)
struct EndToEndLoadTests {
    private func options(_ daemon: DaemonProcess) -> LoadOptions {
        var options = LoadOptions(socketPath: daemon.appSocket, adminSocketPath: daemon.adminSocket)
        options.connections = 2
        options.depth = 8
        options.warmupSeconds = 0.2
        options.durationSeconds = 1
        options.mix = try! OperationMix(parsing: "ping:8,easd:1,status:1,query:1,save:1")
        options.querySamples = 20
        options.saveBatch = 5
        options.payloadBytes = 16
        options.verify = true
        options.quiet = true
        return options
    }

    @Test func aClosedLoopMixRunsForASecondAndEveryCountAddsUp() async throws {
        let daemon = try await DaemonProcess()
        let report = try await LoadRunner(options: options(daemon)).run()

        #expect(report.errors.isEmpty, "errors: \(report.errors)")
        #expect(report.failed == 0)
        #expect(report.completed > 0)
        #expect(report.completed + 0 == report.started, "every started call ended")
        #expect(report.succeeded + report.failed == report.completed)
        #expect(report.operations.map(\.operation) == ["ping", "easd", "status", "query", "save"])
        #expect(report.operations.reduce(0) { $0 + $1.started } == report.started)
        #expect(report.operations.reduce(0) { $0 + $1.completed } == report.completed)
        #expect(report.operations.reduce(0) { $0 + $1.succeeded } == report.succeeded)
        for operation in report.operations {
            #expect(operation.completed > 0, "\(operation.operation) never ran")
            #expect(operation.succeeded + operation.failed == operation.completed)
            #expect(operation.latency.count == operation.succeeded)
        }
        #expect(report.latency.count == report.succeeded)
        #expect(report.latency.p50Micros > 0 && report.latency.p50Micros <= report.latency.p99Micros)
        #expect(report.latency.p99Micros <= report.latency.maxMicros)
        #expect(report.bytesSent > 0 && report.bytesReceived > 0)
        #expect(abs(report.measuredSeconds - 1) < 0.01)
        #expect(report.broker.pid == daemon.pid)
        #expect(report.broker.pidSource == "SO_PEERCRED")
        #expect(report.broker.cpuSeconds != nil)
        // The broker's batching counters were read over the window: replies went out in fewer writes
        // than frames. (Completions are counted until the drain after the window, the broker's
        // counters at the window's end, so the two totals are not compared one to one.)
        let framesSent = try #require(report.broker.framesSent, "no broker counters in the report")
        let writeCalls = try #require(report.broker.writeCalls)
        #expect(framesSent > 0)
        #expect(writeCalls > 0 && writeCalls <= framesSent, "frames \(framesSent), writes \(writeCalls)")
        let query = try #require(report.operations.first { $0.operation == "query" })
        #expect(query.streamItems == query.succeeded)  // 20 samples: one page each

        // The report files.
        let json = try ReportFiles.json(report)
        let decoded = try JSONDecoder().decode(LoadReport.self, from: json)
        #expect(decoded.completed == report.completed)
        #expect(LatencyPlot(report: report).svg().contains("<polyline"))
    }

    /// `--op anchored`: an AnchoredQuery without an anchor streams the seeded samples, checked in
    /// full (`verify`: every page decoded, the added samples counted, the end OK).
    @Test func anchoredQueriesStreamTheSeededSamples() async throws {
        let daemon = try await DaemonProcess()
        var options = options(daemon)
        options.mix = try OperationMix(parsing: "anchored")
        options.querySamples = 600  // two pages: 512 added, then 88 with the anchor
        let report = try await LoadRunner(options: options).run()

        #expect(report.errors.isEmpty, "errors: \(report.errors)")
        #expect(report.failed == 0)
        let anchored = try #require(report.operations.first { $0.operation == "anchored" })
        #expect(anchored.completed > 0)
        #expect(anchored.succeeded == anchored.completed)
        #expect(anchored.streamItems == 2 * anchored.succeeded)
    }

    @Test func aSecondRunReusesTheAppAndAnOpenLoopKeepsItsPace() async throws {
        let daemon = try await DaemonProcess()
        _ = try await LoadRunner(options: { var o = options(daemon); o.durationSeconds = 0.3; o.keep = true; return o }()).run()
        do {
            let admin = try await daemon.admin()
            defer { admin.close() }
            #expect(try await admin.listApps().filter { $0.appID.hasPrefix("healthload.") }.count == 1, "--keep keeps the app")
        }

        var open = options(daemon)
        open.rate = 2_000
        open.depth = nil
        open.mix = try OperationMix(parsing: "ping:3,easd:1")
        let report = try await LoadRunner(options: open).run()
        #expect(report.errors.isEmpty, "errors: \(report.errors)")
        #expect(report.configuration.mode == "open")
        #expect(report.completed == report.started)
        // 2,000 calls/s for 1 s, spread over two connections.
        #expect(report.started + report.unsent >= 1_990 && report.started + report.unsent <= 2_010)
        #expect(report.unsent == 0)
        let admin = try await daemon.admin()
        defer { admin.close() }
        // Without --keep the run removes its app and samples.
        #expect(try await admin.listApps().filter { $0.appID.hasPrefix("healthload.") }.isEmpty)
        var left = 0
        for try await _ in admin.exportSamples() { left += 1 }
        #expect(left == 0, "the run's samples are gone")
    }

    @Test func aBrokerHoldingOtherAppsIsRefusedUnlessAllowed() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp("com.example.person")
        var quick = options(daemon)
        quick.durationSeconds = 0.2
        quick.mix = try OperationMix(parsing: "ping")
        do {
            _ = try await LoadRunner(options: quick).run()
            Issue.record("a broker with another app's data was written to")
        } catch let failure as LoadFailure {
            #expect(failure.description.contains("com.example.person"))
            #expect(failure.description.contains("--allow-writes-to-live-store"))
        }
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.listApps().map(\.appID) == ["com.example.person"], "nothing was registered")
        quick.allowWritesToLiveStore = true
        // A 0.2 s window measured no call once beside two CPU hogs (the worker threads started
        // late): a second is still quick.
        quick.durationSeconds = 1
        let report = try await LoadRunner(options: quick).run()
        #expect(report.errors.isEmpty && report.completed > 0)
        #expect(try await admin.listApps().map(\.appID) == ["com.example.person"], "the run cleaned up after itself")
    }

    @Test func setupRaisesNoPromptAPersonWouldSee() async throws {
        let daemon = try await DaemonProcess()
        let agent = try await daemon.admin()
        let watcher = Task {
            var raised = 0
            do {
                for try await event in agent.watchPrompts() {
                    if case .raised = event { raised += 1 }
                }
            } catch {}  // the agent's connection closes at the end
            return raised
        }
        var run = options(daemon)
        run.durationSeconds = 0.2
        let report = try await LoadRunner(options: run).run()
        #expect(report.errors.isEmpty, "errors: \(report.errors)")
        try await Task.sleep(for: .milliseconds(200))
        agent.close()
        #expect(await watcher.value == 0, "a person's consent agent saw a prompt from healthload")
    }
}
