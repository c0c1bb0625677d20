import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// AdminSetGrant and `healthctl grants set` / `grants --type`: a decision changed directly by the
/// operator takes effect on the app's very next call.
@Suite("Setting a grant directly")
struct SetGrantTests {
    static let writerID = "com.example.writer"
    static let readerID = "com.example.reader"

    /// The writer may share and read everything; the reader starts limited from `limitedFrom`.
    static func policy(limitedFrom: Int64) -> String {
        #"{ "rules": [ { "app": "\#(writerID)", "share": "allow", "read": "full" }, { "app": "\#(readerID)", "share": "allow", "read": "limited", "from": "\#(ISOText(limitedFrom))" } ] }"#
    }

    /// Runs the built `healthctl` against `daemon` in time zone `timeZone`: its exit status, standard output and standard error.
    static func healthctl(_ daemon: DaemonProcess, _ arguments: [String], timeZone: String = "UTC") async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtProduct("healthctl"))
        process.arguments = ["--admin-socket", daemon.adminSocket] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = timeZone
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so a full pipe cannot stall the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func theAppsVeryNextCallsSeeEachNewDecision() async throws {
        let first = base + 100 * hour
        let second = base + 50 * hour
        let daemon = try await DaemonProcess(policy: Self.policy(limitedFrom: first))
        let writer = try await authorizedApp(daemon, Self.writerID, types: [.stepCount])
        defer { writer.close() }
        let reader = try await authorizedApp(daemon, Self.readerID, types: [.stepCount])
        defer { reader.close() }
        let early = stepSample(base + 10 * hour, base + 11 * hour)        // before both dates
        let middle = stepSample(base + 60 * hour, base + 61 * hour)       // after the second date only
        let late = stepSample(base + 110 * hour, base + 111 * hour)       // after both
        _ = try await writer.save([early, middle, late])
        let own = stepSample(base + 20 * hour, base + 21 * hour)          // the reader's own, early
        _ = try await reader.save([own])

        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [.stepCount: Date(microsecondsSince1970: first)])
        #expect(Set(try await collect(reader.samples(of: .stepCount)).map(\.uuid)) == [late.uuid, own.uuid])

        let admin = try await daemon.admin()
        defer { admin.close() }
        // From another date: the very next EASD says it, and the very next query is clamped at it.
        let limited = try await admin.setGrant(appID: Self.readerID, type: .stepCount, read: .limited(from: Date(microsecondsSince1970: second)))
        #expect(limited.read == .limited(fromMicros: second))
        #expect(limited.share == .allow)   // the share part was left as it was
        #expect(limited.decidedBy == "admin")
        #expect(abs(limited.decidedDate.timeIntervalSinceNow) < 60)
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [.stepCount: Date(microsecondsSince1970: second)])
        #expect(Set(try await collect(reader.samples(of: .stepCount)).map(\.uuid)) == [middle.uuid, late.uuid, own.uuid])
        let explained = try await admin.explain(appID: Self.readerID, type: .stepCount)
        #expect(explained.grant == limited)
        #expect(explained.text.contains("limited from") && explained.text.contains("Decided by admin"))

        // Deny: the next query returns only its own samples, and EASD says nothing (as for full).
        let denied = try await admin.setGrant(appID: Self.readerID, type: .stepCount, read: .deny)
        #expect(denied.read == .deny)
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [:])
        let seen = try await collect(reader.samples(of: .stepCount))
        #expect(seen.map(\.uuid) == [own.uuid])
        #expect(seen.allSatisfy { $0.sourceAppID == Self.readerID })
        #expect(try await reader.authorizationStatus(for: .stepCount) == .sharingAuthorized)
        #expect(try await admin.explain(appID: Self.readerID, type: .stepCount).text.contains("read denied"))

        // Full: EASD returns nothing for the type, and everything is readable.
        _ = try await admin.setGrant(appID: Self.readerID, type: .stepCount, read: .full)
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [:])
        #expect(Set(try await collect(reader.samples(of: .stepCount)).map(\.uuid)) == [early.uuid, middle.uuid, late.uuid, own.uuid])

        // Share only: the read part stays full, and the app's next save is refused.
        let shareDenied = try await admin.setGrant(appID: Self.readerID, type: .stepCount, share: .deny)
        #expect(shareDenied.share == .deny && shareDenied.read == .full)
        #expect(try await reader.authorizationStatus(for: .stepCount) == .sharingDenied)
        let refused = await #expect(throws: BrokerError.self) { _ = try await reader.save([stepSample(base, base + 1)]) }
        #expect(refused?.code == .permissionDenied)

        // The listing shows what was set.
        #expect(try await admin.grants(for: Self.readerID).first { $0.type == .stepCount } == shareDenied)
    }

    @Test func aGrantSetForATypeNeverAskedMakesItDecided() async throws {
        let daemon = try await DaemonProcess()
        let reader = try await daemon.connectApp(Self.readerID)
        defer { reader.close() }
        let notAsked = await #expect(throws: BrokerError.self) { _ = try await collect(reader.samples(of: .heartRate)) }
        #expect(notAsked?.domain == .authorizationNotDetermined)
        let admin = try await daemon.admin()
        defer { admin.close() }
        let grant = try await admin.setGrant(appID: Self.readerID, type: .heartRate, read: .full)
        #expect(grant.share == nil && grant.read == .full)
        #expect(try await collect(reader.samples(of: .heartRate)).isEmpty)
        #expect(try await reader.statusForAuthorizationRequest(toShare: [], read: [.heartRate]) == .unnecessary)
        #expect(try await reader.authorizationStatus(for: .heartRate) == .notDetermined)
    }

    @Test func theRulesAreEnforced() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp(Self.readerID)
        let admin = try await daemon.admin()
        defer { admin.close() }
        let unknownApp = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: "com.example.nobody", type: .stepCount, read: .full)
        }
        #expect(unknownApp?.code == .notFound)
        let future = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: Self.readerID, type: .stepCount, read: .limited(from: Date().addingTimeInterval(86_400)))
        }
        #expect(future?.code == .invalidArgument)
        #expect(future?.message.contains("future") == true)
        let characteristicLimited = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: Self.readerID, type: .dateOfBirth, read: .limited(from: Date(microsecondsSince1970: base)))
        }
        #expect(characteristicLimited?.code == .invalidArgument)
        let characteristicShare = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: Self.readerID, type: .bloodType, share: .allow)
        }
        #expect(characteristicShare?.code == .invalidArgument)
        let nothing = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: Self.readerID, type: .stepCount)
        }
        #expect(nothing?.code == .invalidArgument)
        let unknownType = await #expect(throws: BrokerError.self) {
            _ = try await admin.setGrant(appID: Self.readerID, type: ObjectType("HKQuantityTypeIdentifierNoSuchThing"), read: .full)
        }
        #expect(unknownType?.code == .invalidArgument)
        // None of those recorded anything; a characteristic takes full or deny.
        #expect(try await admin.grants(for: Self.readerID).isEmpty)
        #expect(try await admin.setGrant(appID: Self.readerID, type: .dateOfBirth, read: .full).read == .full)
    }

    @Test func anOpenPromptIsNotAffected() async throws {
        let daemon = try await DaemonProcess()
        let reader = try await daemon.connectApp(Self.readerID)
        defer { reader.close() }
        let admin = try await daemon.admin()
        defer { admin.close() }
        let asking = Task { try await reader.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(20)) }
        var events = admin.watchPrompts().makeAsyncIterator()
        guard case .raised(let prompt)? = try await events.next() else {
            Issue.record("no prompt raised")
            return
        }
        _ = try await admin.setGrant(appID: Self.readerID, type: .stepCount, read: .deny)
        // The prompt is still open: answering it records the person's answer and ends the request.
        try await admin.answerPrompt(prompt.id, decisions: [TypeDecision(type: .stepCount, read: .full)])
        try await asking.value
        #expect(try await admin.grants(for: Self.readerID).first?.read == .full)
    }

    /// A day the person picked reads back as that day in their time zone, in every text table
    /// (`grants`, `grants --type`, `explain`); `--utc` writes the same instant in UTC.
    @Test func tablesShowThePickedDayInThePersonsTimeZone() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy(limitedFrom: base + 100 * hour))
        let reader = try await authorizedApp(daemon, Self.readerID, types: [.stepCount])
        defer { reader.close() }
        let set = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2026-06-03"], timeZone: "Asia/Tokyo")
        #expect(set.status == 0, "\(set.errors)")

        for arguments in [["grants", Self.readerID], ["grants", "--type", "stepCount"]] {
            let tokyo = try await Self.healthctl(daemon, arguments, timeZone: "Asia/Tokyo")
            #expect(tokyo.status == 0, "\(tokyo.errors)")
            let lines = tokyo.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("DECIDED (LOCAL)") == true, "\(tokyo.output)")
            let row = try #require(lines.first { $0.contains("limited") }, "\(tokyo.output)")
            #expect(row.contains(" 2026-06-03 "), "the day as picked: \(tokyo.output)")
            #expect(row.contains("JST"), "decided in local time: \(tokyo.output)")
            #expect(!row.contains("Z "), "\(tokyo.output)")

            let utc = try await Self.healthctl(daemon, ["--utc"] + arguments, timeZone: "Asia/Tokyo")
            #expect(utc.output.split(separator: "\n").first?.contains("DECIDED (UTC)") == true, "\(utc.output)")
            #expect(utc.output.contains("2026-06-02T15:00:00Z"), "midnight in Tokyo, in UTC: \(utc.output)")
        }
        let explained = try await Self.healthctl(daemon, ["explain", Self.readerID, "stepCount"], timeZone: "Asia/Tokyo")
        #expect(explained.output.contains("limited from    2026-06-03") || explained.output.range(of: #"limited from\s+2026-06-03\n"#, options: .regularExpression) != nil,
                "\(explained.output)")
        // The paragraph above the table words the same instants in the same zone.
        let paragraph = explained.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(paragraph.contains("limited from 2026-06-03 00:00:00 JST"), "\(explained.output)")
        #expect(!paragraph.contains("2026-06-02T15:00:00Z"), "\(explained.output)")
        let explainedUTC = try await Self.healthctl(daemon, ["--utc", "explain", Self.readerID, "stepCount"], timeZone: "Asia/Tokyo")
        #expect(explainedUTC.output.split(separator: "\n").first?.contains("limited from 2026-06-02T15:00:00Z") == true, "\(explainedUTC.output)")
        // The access log takes --utc after its subcommand too, as before.
        #expect(try await Self.healthctl(daemon, ["access-log", "--utc"]).status == 0)
    }

    @Test func healthctlSetsAGrantAndListsOneTypeAcrossApps() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy(limitedFrom: base + 100 * hour))
        let writer = try await authorizedApp(daemon, Self.writerID, types: [.stepCount])
        defer { writer.close() }
        let reader = try await authorizedApp(daemon, Self.readerID, types: [.stepCount])
        defer { reader.close() }
        _ = try await daemon.registerApp("com.example.quiet")

        let set = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2026-06-03"])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains("read limited from 2026-06-03"), "\(set.output)")
        let june3 = base + 48 * hour
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [.stepCount: Date(microsecondsSince1970: june3)])
        // A day is midnight where the person is, as in 'healthctl consent' and the page.
        let tokyo = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2026-06-03"], timeZone: "Asia/Tokyo")
        #expect(tokyo.status == 0, "\(tokyo.errors)")
        #expect(tokyo.output.contains("read limited from 2026-06-03 "), "the day as given: \(tokyo.output)")
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [.stepCount: Date(microsecondsSince1970: june3 - 9 * hour)])
        // An instant is exact, whatever the zone.
        let instant = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2026-06-03T06:30:00Z"], timeZone: "Asia/Tokyo")
        #expect(instant.status == 0, "\(instant.errors)")
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]) == [.stepCount: Date(microsecondsSince1970: june3 + 6 * hour + 1_800_000_000)])
        #expect(try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2026-06-03"]).status == 0)

        let json = try await Self.healthctl(daemon, ["--json", "grants", "set", Self.readerID, "HKQuantityTypeIdentifierStepCount", "deny", "--share", "deny"])
        #expect(json.status == 0, "\(json.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["app_id"] as? String == Self.readerID)
        #expect(object["read"] as? String == "denied")
        #expect(object["share"] as? String == "denied")
        #expect(object["decided_by"] as? String == "admin")

        let table = try await Self.healthctl(daemon, ["grants", "--type", "stepCount"])
        #expect(table.status == 0, "\(table.errors)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("APP ID") == true)
        #expect(lines.count == 3, "\(table.output)")   // header, reader, writer; the quiet app never asked
        #expect(lines.contains { $0.hasPrefix(Self.readerID) && $0.contains("denied") && $0.hasSuffix("admin") })
        #expect(lines.contains { $0.hasPrefix(Self.writerID) && $0.contains("full") && $0.hasSuffix("policy") })

        let listed = try await Self.healthctl(daemon, ["--json", "grants", "--type", "stepCount"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["app_id"] as? String } == [Self.readerID, Self.writerID])
        #expect(rows.map { $0["read"] as? String } == ["denied", "full"])

        let none = try await Self.healthctl(daemon, ["grants", "--type", "heartRate"])
        #expect(none.status == 0)
        #expect(none.output.contains("no app has a grant"))

        // The broker's refusals come back as healthctl's errors; usage mistakes exit 64.
        let future = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from", "2999-01-01"])
        #expect(future.status == 1)
        #expect(future.errors.contains("future"), "\(future.errors)")
        let unknown = try await Self.healthctl(daemon, ["grants", "set", "com.example.nobody", "stepCount", "full"])
        #expect(unknown.status == 1)
        let characteristic = try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "dateOfBirth", "from", "2026-06-03"])
        #expect(characteristic.status == 1)
        #expect(try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount"]).status == 64)
        #expect(try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "sometimes"]).status == 64)
        #expect(try await Self.healthctl(daemon, ["grants", "set", Self.readerID, "stepCount", "from"]).status == 64)
        #expect(try await Self.healthctl(daemon, ["grants", Self.readerID, "--type", "stepCount"]).status == 64)
        #expect(try await Self.healthctl(daemon, ["grants"]).status == 64)
        // One app's grants still work as before.
        let one = try await Self.healthctl(daemon, ["grants", Self.writerID])
        #expect(one.status == 0 && one.output.contains("HKQuantityTypeIdentifierStepCount"))
    }

    @Test func healthctlTurnsATypeOffForEveryApp() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy(limitedFrom: base + 100 * hour))
        let writer = try await authorizedApp(daemon, Self.writerID, types: [.stepCount, .heartRate])
        defer { writer.close() }
        let reader = try await authorizedApp(daemon, Self.readerID, types: [.stepCount])
        defer { reader.close() }
        _ = try await daemon.registerApp("com.example.quiet")
        let admin = try await daemon.admin()
        defer { admin.close() }
        let denied = try await admin.setGrant(appID: "com.example.quiet", type: .stepCount, read: .deny)
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]).count == 1)

        let off = try await Self.healthctl(daemon, ["grants", "turn-off", "stepCount"])
        #expect(off.status == 0, "\(off.errors)")
        let lines = off.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "turned off stepCount for 2 apps (each sees it on its next call):", "\(off.output)")
        #expect(lines.contains { $0.hasPrefix(Self.readerID) && $0.contains("denied") && $0.hasSuffix("admin") }, "\(off.output)")
        #expect(lines.contains { $0.hasPrefix(Self.writerID) && $0.contains("denied") && $0.hasSuffix("admin") }, "\(off.output)")
        #expect(!off.output.contains("com.example.quiet"), "an app already denied is left as it was: \(off.output)")
        // The apps' very next calls see it; another type stays as it was.
        #expect(try await writer.authorizationStatus(for: .stepCount) == .sharingDenied)
        #expect(try await reader.authorizationStatus(for: .stepCount) == .sharingDenied)
        #expect(try await reader.earliestAuthorizedSampleDate(for: [.stepCount]).isEmpty)
        for appID in [Self.writerID, Self.readerID] {
            let grant = try #require(try await admin.grants(for: appID).first { $0.type == .stepCount })
            #expect(grant.read == .deny && grant.share == .deny && grant.decidedBy == "admin", "\(grant)")
        }
        #expect(try await writer.authorizationStatus(for: .heartRate) == .sharingAuthorized)
        #expect(try await admin.grants(for: "com.example.quiet").first { $0.type == .stepCount } == denied)

        let again = try await Self.healthctl(daemon, ["grants", "turn-off", "stepCount"])
        #expect(again.status == 0 && again.output == "no app may read or write stepCount: nothing to turn off\n", "\(again.output)")
        let json = try await Self.healthctl(daemon, ["--json", "grants", "turn-off", "HKQuantityTypeIdentifierHeartRate"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]], "\(json.output)")
        #expect(rows.map { $0["app_id"] as? String } == [Self.writerID])
        #expect(rows.map { $0["read"] as? String } == ["denied"])
        #expect(try await Self.healthctl(daemon, ["grants", "turn-off"]).status == 64)
        #expect(try await Self.healthctl(daemon, ["grants", "turn-off", "noSuchType"]).status == 64)
    }
}
