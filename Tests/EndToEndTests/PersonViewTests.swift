import BrokerModel
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Issue 17, the broker's side of the person's view: every source (askers and writers, with their
/// counts), an access log of one row per call that names the call, and the person's own statistics.
@Suite("The person's view")
struct PersonViewTests {
    static let readerID = "com.example.view.reader"
    static let deniedID = "com.example.view.denied"
    static let importedID = "com.example.view.imported"

    /// The reader may read everything; the denied app may share steps but read nothing of others.
    static let policy = """
        { "rules": [
          { "app": "\(deniedID)", "share": "allow", "read": "deny" },
          { "app": "*", "share": "allow", "read": "full" }
        ] }
        """

    /// Runs healthctl on `daemon`'s admin socket with `environment` added to this process's.
    static func healthctl(_ daemon: DaemonProcess, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtProduct("healthctl"))
        process.arguments = ["--admin-socket", daemon.adminSocket] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Writes `count` one-minute step samples from `start` (value 1 each) as JSON lines.
    static func stepFile(_ daemon: DaemonProcess, count: Int, start: Int64) throws -> String {
        let path = daemon.directory + "/steps-\(start).jsonl"
        var text = ""
        for index in 0..<count {
            let from = start + Int64(index) * 60_000_000
            text += #"{"type": "stepCount", "start_us": \#(from), "end_us": \#(from + 60_000_000), "value": 1}"# + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The access log once `done` holds for it (rows are written just after each reply), or the last one read.
    static func accessLog(_ admin: BrokerAdmin, until done: ([AccessLogEntry]) -> Bool) async throws -> [AccessLogEntry] {
        var entries: [AccessLogEntry] = []
        for _ in 0..<100 {
            entries = try await admin.accessLog()
            if done(entries) { return entries }
            try await Task.sleep(for: .milliseconds(50))
        }
        return entries
    }

    @Test func sourcesListEveryAppThatAskedOrWroteWithItsSampleCount() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let reader = try await authorizedApp(daemon, Self.readerID)
        defer { reader.close() }
        let denied = try await authorizedApp(daemon, Self.deniedID)
        defer { denied.close() }
        _ = try await reader.save([stepSample(base, base + hour), stepSample(base + hour, base + 2 * hour)])
        // An import under an id that never asked (and is not registered).
        let file = try Self.stepFile(daemon, count: 2_500, start: base + 10 * hour)
        let imported = try await Self.healthctl(daemon, ["import", file, "--app", Self.importedID, "--batch", "1000"])
        #expect(imported.status == 0, "\(imported.errors)")

        let admin = try await daemon.admin()
        defer { admin.close() }
        let sources = try await admin.sources()
        #expect(sources.map(\.appID) == [Self.deniedID, Self.importedID, Self.readerID])
        #expect(sources.map(\.sampleCount) == [0, 2_500, 2])
        #expect(sources.map(\.everAsked) == [true, false, true])
        #expect(sources.map(\.isRegistered) == [true, false, true])
        let writer = try #require(sources.first { $0.appID == Self.importedID })
        #expect(writer.firstRequestMicros == 0 && writer.appName == Self.importedID)

        let json = try await Self.healthctl(daemon, ["sources", "--json"])
        #expect(json.status == 0, "\(json.errors)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let row = try #require(objects.first { $0["app_id"] as? String == Self.importedID })
        #expect((row["sample_count"] as? NSNumber)?.intValue == 2_500)
        #expect(row["ever_asked"] as? Bool == false)
        #expect(row["first_request"] is NSNull)
        let text = try await Self.healthctl(daemon, ["sources"])
        let line = try #require(text.output.split(separator: "\n").first { $0.hasPrefix(Self.importedID) })
        #expect(line.contains("2500") && line.contains("never asked"), "\(text.output)")
    }

    /// The Health app's Sources per data type: each source's stored samples per type, through the
    /// client, `healthctl sources --json` and `healthctl sources --type`; a delete lowers the count.
    @Test func sourcesCountEachAppsSamplesPerType() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let watch = try await authorizedApp(daemon, Self.readerID)
        defer { watch.close() }
        let phone = try await authorizedApp(daemon, Self.deniedID)
        defer { phone.close() }
        let beat = { (start: Int64) in
            Sample(uuid: UUID().uuidString.lowercased(), type: .heartRate, startMicros: start, endMicros: start, value: .quantity(Quantity(60, "count/min")))
        }
        let watchSteps = [stepSample(base, base + hour), stepSample(base + hour, base + 2 * hour), stepSample(base + 2 * hour, base + 3 * hour)]
        _ = try await watch.save(watchSteps + [beat(base), beat(base + hour)])
        _ = try await phone.save([stepSample(base, base + hour)])

        let admin = try await daemon.admin()
        defer { admin.close() }
        var sources = try await admin.sources()
        let byApp = Dictionary(uniqueKeysWithValues: sources.map { ($0.appID, $0) })
        #expect(byApp[Self.readerID]?.sampleCounts == [.stepCount: 3, .heartRate: 2])
        #expect(byApp[Self.readerID]?.sampleCount == 5)
        #expect(byApp[Self.deniedID]?.sampleCounts == [.stepCount: 1])

        #expect(try await watch.delete([watchSteps[0].uuid]) == 1)
        sources = try await admin.sources()
        #expect(sources.first { $0.appID == Self.readerID }?.sampleCounts == [.stepCount: 2, .heartRate: 2])

        let json = try await Self.healthctl(daemon, ["sources", "--json"])
        #expect(json.status == 0, "\(json.errors)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let watchRow = try #require(objects.first { $0["app_id"] as? String == Self.readerID })
        let types = try #require(watchRow["types"] as? [String: Any])
        #expect((types["HKQuantityTypeIdentifierStepCount"] as? NSNumber)?.intValue == 2)
        #expect((types["HKQuantityTypeIdentifierHeartRate"] as? NSNumber)?.intValue == 2)

        let heart = try await Self.healthctl(daemon, ["sources", "--type", "heartRate"])
        #expect(heart.status == 0, "\(heart.errors)")
        let rows = heart.output.split(separator: "\n").dropFirst()
        #expect(rows.count == 1 && rows.first?.hasPrefix(Self.readerID) == true, "\(heart.output)")
        let steps = try await Self.healthctl(daemon, ["sources", "--type", "stepCount"])
        #expect(steps.output.split(separator: "\n").dropFirst().count == 2, "\(steps.output)")
        let none = try await Self.healthctl(daemon, ["sources", "--type", "bodyMass"])
        #expect(none.status == 0 && none.output.hasPrefix("no app has stored samples of"), "\(none.output)")
        let unknown = try await Self.healthctl(daemon, ["sources", "--type", "noSuchType"])
        #expect(unknown.status == 64, "\(unknown.errors)")
    }

    @Test func theAccessLogHasOneRowPerCallNamingTheCall() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let admin = try await daemon.admin()
        defer { admin.close() }
        // One import of 2,500 samples in three calls is one row.
        let file = try Self.stepFile(daemon, count: 2_500, start: base)
        let imported = try await Self.healthctl(daemon, ["import", file, "--app", Self.importedID, "--batch", "1000"])
        #expect(imported.status == 0, "\(imported.errors)")
        // The same file again: a new run, a new row (counting nothing new).
        let again = try await Self.healthctl(daemon, ["import", file, "--app", Self.importedID, "--batch", "1000"])
        #expect(again.status == 0, "\(again.errors)")

        let app = try await authorizedApp(daemon, Self.readerID)
        defer { app.close() }
        let own = [stepSample(base + 100 * hour, base + 101 * hour), stepSample(base + 101 * hour, base + 102 * hour)]
        _ = try await app.save(own)
        // A query of 2,502 samples in pages of 100 is one row when its stream ends.
        let read = try await collect(app.samples(of: .stepCount, pageSize: 100))
        #expect(read.count == 2_502)
        let stats = try await app.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum))
        #expect(stats.buckets.map(\.sampleCount) == [2_502])
        _ = try await app.anchoredChanges(of: .stepCount)
        #expect(try await app.delete([own[0].uuid]) == 1)

        let expected = ["Delete", "AnchoredQuery", "Statistics", "Query", "Save", "AdminImport", "AdminImport"]
        let entries = try await Self.accessLog(admin) { $0.count >= expected.count }
        #expect(entries.map(\.method) == expected)
        #expect(entries.map(\.operation) == ["delete", "read", "read", "read", "write", "write", "write"])
        #expect(entries.map(\.sampleCount) == [1, 2_502, 2_502, 2_502, 2, 0, 2_500])
        #expect(entries.suffix(2).allSatisfy { $0.appID == Self.importedID })

        // healthctl shows the call; local time by default (TZ), UTC with --utc.
        let local = try await Self.healthctl(daemon, ["access-log"], environment: ["TZ": "Asia/Tokyo"])
        #expect(local.status == 0, "\(local.errors)")
        let localLines = local.output.split(separator: "\n")
        #expect(localLines.first?.hasPrefix("WHEN (LOCAL)") == true, "\(local.output)")
        #expect(localLines.dropFirst().allSatisfy { $0.contains(" JST ") }, "\(local.output)")
        #expect(localLines.count == 1 + expected.count)
        #expect(localLines.last?.contains("AdminImport") == true && localLines.last?.contains("2500") == true)
        let utc = try await Self.healthctl(daemon, ["access-log", "--utc"], environment: ["TZ": "Asia/Tokyo"])
        #expect(utc.output.hasPrefix("WHEN (UTC)"), "\(utc.output)")
        #expect(utc.output.split(separator: "\n").dropFirst().allSatisfy { $0.contains("Z  ") })
        let json = try await Self.healthctl(daemon, ["access-log", "--json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["method"] as? String ?? "?" } == expected)
    }

    @Test func aQueryLeftEarlyIsOneRowCountingWhatItWasSent() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let admin = try await daemon.admin()
        defer { admin.close() }
        let file = try Self.stepFile(daemon, count: 2_000, start: base)
        let imported = try await Self.healthctl(daemon, ["import", file, "--app", Self.importedID])
        #expect(imported.status == 0, "\(imported.errors)")
        let app = try await authorizedApp(daemon, Self.readerID)
        defer { app.close() }
        var seen = 0
        for try await _ in app.samples(of: .stepCount, pageSize: 100) {
            seen += 1
            if seen == 150 { break }   // cancels the stream
        }
        // A later call on the same connection: its row comes after the query's.
        _ = try await app.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum))
        let entries = try await Self.accessLog(admin) { $0.count >= 3 }
        #expect(entries.map(\.method) == ["Statistics", "Query", "AdminImport"])
        // What the broker queued before the cancel arrived: whole pages, at most the credit window ahead.
        let queried = entries[1].sampleCount
        #expect(queried >= 200 && queried % 100 == 0 && queried <= 200 + 100 * 4, "\(queried)")
    }

    @Test func adminStatisticsCountEverySourceAndTheAppsOwnStayClamped() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let reader = try await authorizedApp(daemon, Self.readerID, types: [.stepCount])
        defer { reader.close() }
        let denied = try await authorizedApp(daemon, Self.deniedID, types: [.stepCount])
        defer { denied.close() }
        // Day 1: the reader 10 + 20, the denied app 5; day 2: the denied app 7.
        _ = try await reader.save([stepSample(base + hour, base + 2 * hour, 10), stepSample(base + 3 * hour, base + 4 * hour, 20)])
        _ = try await denied.save([stepSample(base + 5 * hour, base + 6 * hour, 5), stepSample(base + 26 * hour, base + 27 * hour, 7)])
        let day = 24 * hour
        let query = StatisticsQuery(
            type: .stepCount, predicate: SamplePredicate(startMicros: base, endMicros: base + 2 * day), options: .sum,
            interval: .day, anchorMicros: base, timeZone: "UTC")

        let admin = try await daemon.admin()
        defer { admin.close() }
        let before = try await admin.accessLog().count
        let all = try await admin.statistics(query)
        #expect(all.unit == "count")
        #expect(all.buckets.map(\.startMicros) == [base, base + day])
        #expect(all.buckets.map(\.sum) == [35, 7])
        #expect(all.buckets.map(\.sampleCount) == [3, 1])
        // An app's statistics are what they were: the reader sees everyone's, the denied app its own.
        let seenByReader = try await reader.statistics(query)
        #expect(seenByReader.buckets.map(\.sum) == [35, 7])
        let seenByDenied = try await denied.statistics(query)
        #expect(seenByDenied.buckets.map(\.sum) == [5, 7])
        // Discrete options are refused for a cumulative type, as for apps; nothing at all is empty.
        await #expect(throws: BrokerError.self) {
            _ = try await admin.statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .average))
        }
        let nothing = try await admin.statistics(StatisticsQuery(type: .heartRate, predicate: .all, options: .average))
        #expect(nothing.buckets.isEmpty)
        // The apps' two calls are logged, the person's are not.
        let entries = try await Self.accessLog(admin) { $0.count >= before + 2 }
        #expect(entries.count == before + 2)
        #expect(entries.prefix(2).map(\.method) == ["Statistics", "Statistics"])

        // healthctl stats: the same totals, per day in a time zone.
        let stats = try await Self.healthctl(daemon, [
            "stats", "stepCount", "--interval", "day", "--from", "2026-06-01", "--to", "2026-06-03", "--tz", "UTC", "--json",
        ])
        #expect(stats.status == 0, "\(stats.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
        let buckets = try #require(object["buckets"] as? [[String: Any]])
        #expect(buckets.map { ($0["sum"] as? NSNumber)?.doubleValue } == [35, 7])
        #expect(buckets.first?["start"] as? String == "2026-06-01T00:00:00Z")
        let table = try await Self.healthctl(daemon, ["stats", "stepCount", "--tz", "UTC", "--from", "2026-06-01", "--to", "2026-06-03"])
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.output.contains("SUM (count)") && table.output.contains("42"), "\(table.output)")
    }
}
