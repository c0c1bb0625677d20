import BrokerModel
import BrokerStore
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// `healthctl backup` while the daemon runs, then `healthbrokerd --restore` with it stopped: the
/// restored broker is exactly the backed-up one.
@Suite("Backup and restore")
struct BackupRestoreTests {
    static let writerID = "com.example.backup.writer"
    static let otherID = "com.example.backup.other"
    static let types: Set<ObjectType> = [.stepCount, .heartRate, .dateOfBirth]

    /// Everything the admin socket can see of the store, to compare before and after.
    struct Snapshot: Equatable {
        var apps: [AppInfo]
        var grants: [String: [Grant]]
        var sources: [Source]
        var samples: [Sample]
        var accessLog: [AccessLogEntry]
    }

    static func snapshot(_ daemon: DaemonProcess) async throws -> Snapshot {
        let admin = try await daemon.admin()
        defer { admin.close() }
        let apps = try await admin.listApps()
        var grants: [String: [Grant]] = [:]
        for app in apps { grants[app.appID] = try await admin.grants(for: app.appID) }
        return Snapshot(
            apps: apps, grants: grants, sources: try await admin.sources(),
            samples: try await collect(admin.exportSamples()), accessLog: try await admin.accessLog())
    }

    /// Runs the built `healthbrokerd` with `arguments` to completion: its status and combined output.
    static func daemonCommand(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aRestoredBrokerIsExactlyTheBackedUpOne() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let writerCredentials = try await daemon.registerApp(Self.writerID)
        let writer = try await HealthStore.connect(socketPath: daemon.appSocket, appID: Self.writerID, appToken: writerCredentials.token)
        try await writer.requestAuthorization(toShare: [.stepCount, .heartRate], read: Self.types, timeout: .seconds(10))
        let other = try await authorizedApp(daemon, Self.otherID, types: [.stepCount])
        let kept = stepSample(base, base + hour)
        let deleted = stepSample(base + hour, base + 2 * hour)
        let others = stepSample(base + 2 * hour, base + 3 * hour, 7)
        _ = try await writer.save([kept, deleted])
        _ = try await other.save([others])
        let before = try await writer.anchoredChanges(of: .stepCount)
        #expect(Set(before.added.map(\.uuid)) == [kept.uuid, deleted.uuid, others.uuid])
        #expect(try await writer.delete([deleted.uuid]) == 1)
        let admin = try await daemon.admin()
        try await admin.setCharacteristic(.dateOfBirth, value: "1990-04-01")
        _ = try await admin.setGrant(appID: Self.otherID, type: .stepCount, read: .deny)
        admin.close()
        _ = try await collect(writer.samples(of: .stepCount))   // an access-log read entry
        let backedUp = try await Self.snapshot(daemon)
        #expect(backedUp.samples.count == 2 && backedUp.accessLog.count >= 3)

        let file = daemon.directory + "/store backup.sqlite"
        let made = try await SetGrantTests.healthctl(daemon, ["backup", file])
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("backed up") && made.output.contains(file))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let again = try await SetGrantTests.healthctl(daemon, ["backup", file])
        #expect(again.status != 0)
        #expect(again.errors.contains("already exists"), "\(again.errors)")

        // More data after the backup: all of it must be gone after the restore.
        let late = try await authorizedApp(daemon, "com.example.backup.late", types: [.stepCount])
        _ = try await late.save([stepSample(base + 5 * hour, base + 6 * hour)])
        _ = try await writer.save([stepSample(base + 7 * hour, base + 8 * hour)])
        #expect(try await writer.delete([kept.uuid]) == 1)
        let admin2 = try await daemon.admin()
        try await admin2.setCharacteristic(.dateOfBirth, value: "2000-01-01")
        _ = try await admin2.revoke(appID: Self.writerID, types: [.heartRate])
        admin2.close()
        late.close()
        writer.close()
        other.close()
        #expect(try await Self.snapshot(daemon) != backedUp)

        // A running broker's directory is locked: the restore refuses and changes nothing.
        let refused = try await Self.daemonCommand(["--data-dir", daemon.dataDirectory, "--restore", file])
        #expect(refused.status != 0)
        #expect(refused.output.contains("FAILED_PRECONDITION") || refused.output.contains("holds"), "\(refused.output)")

        #expect(try await daemon.stop() == 0)
        let restored = try await Self.daemonCommand(["--data-dir", daemon.dataDirectory, "--restore", file])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("before-restore-"), "\(restored.output)")
        try await daemon.start()

        #expect(try await Self.snapshot(daemon) == backedUp)
        // The old token still opens a session, and the app's view is the backed-up one.
        let reopened = try await HealthStore.connect(socketPath: daemon.appSocket, appID: Self.writerID, appToken: writerCredentials.token)
        defer { reopened.close() }
        #expect(try await collect(reopened.samples(of: .stepCount)).map(\.uuid).sorted() == [kept.uuid, others.uuid].sorted())
        #expect(try await reopened.characteristics([.dateOfBirth]) == [.dateOfBirth: "1990-04-01"])
        // The deletion made before the backup is still reported to an anchor from before it.
        let changes = try await reopened.anchoredChanges(of: .stepCount, anchor: before.newAnchor)
        #expect(changes.deletedUUIDs == [deleted.uuid])
        #expect(changes.added.isEmpty)
        // The app registered after the backup is gone.
        let apps = try await daemon.admin()
        defer { apps.close() }
        #expect(try await apps.listApps().map(\.appID).sorted() == [Self.otherID, Self.writerID])
    }

    @Test func anOlderSchemaIsBackedUpAtStartAndTheMigrationLogged() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        try await daemon.stop()
        // Replace the database with one at schema version 6 holding one app.
        let path = daemon.dataDirectory + "/" + DataDirectory.databaseFileName
        for file in [path, path + "-wal", path + "-shm"] { unlink(file) }
        do {
            let database = try Database(path: path)
            try Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(6))).apply(to: database)
            try database.execute("""
                INSERT INTO apps (app_id, name, read_usage, share_usage, pinned_uid, token_hash, created_us, token_rotated_us)
                VALUES ('com.example.old', 'Old', '', '', NULL, x'01', 7, 8);
                """)
            database.close()
        }
        try await daemon.start()
        let latest = BrokerSchema.migrations.latestVersion
        let line = try #require(daemon.log().split(separator: "\n").first { $0.contains("msg=\"schema migrated\"") })
        #expect(line.contains("from=6") && line.contains("to=\(latest)"), "\(line)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: daemon.dataDirectory + "/backups")
        #expect(backups.count == 1)
        let backup = try #require(backups.first)
        #expect(backup.hasPrefix("before-v\(latest)-") && backup.hasSuffix(".sqlite"))
        #expect(line.contains(daemon.dataDirectory + "/backups/" + backup), "\(line)")
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.listApps().map(\.appID) == ["com.example.old"])
        // The backup is the version 6 database as it was.
        let copy = try Database(path: daemon.dataDirectory + "/backups/" + backup)
        defer { copy.close() }
        #expect(try copy.userVersion() == 6)
    }

    @Test func theBrokerRefusesPathsItShouldNotWrite() async throws {
        let daemon = try await DaemonProcess()
        let admin = try await daemon.admin()
        defer { admin.close() }
        // Relative to the broker's working directory, not the caller's: refused.
        await #expect { try await admin.backup(to: "relative.sqlite") } throws: { ($0 as? BrokerError)?.code == .invalidArgument }
        await #expect { try await admin.backup(to: daemon.directory + "/missing/dir/b.sqlite") } throws: {
            ($0 as? BrokerError)?.code == .invalidArgument
        }
        let file = daemon.directory + "/b.sqlite"
        let made = try await admin.backup(to: file)
        #expect(made.path == file && made.bytes > 0 && made.pages > 0)
        await #expect { try await admin.backup(to: file) } throws: { ($0 as? BrokerError)?.code == .alreadyExists }
        // healthctl --json names the same fields.
        let json = try await SetGrantTests.healthctl(daemon, ["--json", "backup", daemon.directory + "/c.sqlite"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.contains("\"path\" : \"\(daemon.directory)/c.sqlite\"") && json.output.contains("\"pages\""), "\(json.output)")
    }
}
