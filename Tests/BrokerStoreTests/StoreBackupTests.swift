import BrokerModel
import BrokerStore
import Foundation
import Testing

@Suite("Backups and restore")
struct StoreBackupTests {
    /// Registers an app named `id`.
    static func add(_ store: BrokerStore, _ id: String) throws {
        _ = try store.addApp(AppRegistration(appID: id, name: id), tokenHash: [1], now: 1)
    }

    @Test func backupIsAPrivateConsistentCopyAndNeverReplacesAFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.child("data"))
        defer { store.close() }
        try Self.add(store, "com.example.a")
        try store.setMetaValue("k", [7])
        let target = directory.child("copy.sqlite")
        let backup = try store.backup(to: target)
        #expect(backup.path == target)
        #expect(backup.bytes > 0 && backup.pages > 0)
        #expect(permissionBits(target) == 0o600)
        // Only the finished file is left: no temporary name beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["copy.sqlite", "data"])

        let again = #expect(throws: BrokerError.self) { try store.backup(to: target) }
        #expect(again?.code == .alreadyExists)
        let relative = #expect(throws: BrokerError.self) { try store.backup(to: "copy2.sqlite") }
        #expect(relative?.code == .invalidArgument)
        let missing = #expect(throws: BrokerError.self) { try store.backup(to: directory.child("no/such/dir.sqlite")) }
        #expect(missing?.code == .invalidArgument)

        let copy = try Database(path: target)
        defer { copy.close() }
        #expect(try copy.userVersion() == BrokerSchema.migrations.latestVersion)
        #expect(try copy.integrityCheck() == "ok")
    }

    @Test func restorePutsTheBackupInPlaceAndKeepsTheCurrentDatabaseAside() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.child("data")
        let target = directory.child("copy.sqlite")
        do {
            let store = try BrokerStore(dataDirectory: data)
            defer { store.close() }
            try Self.add(store, "com.example.a")
            _ = try store.backup(to: target)
            try Self.add(store, "com.example.b")
        }
        // The lock is taken: a running store's directory is not restored into.
        do {
            let running = try BrokerStore(dataDirectory: data)
            defer { running.close() }
            let busy = #expect(throws: BrokerError.self) {
                try BrokerStore.restore(from: target, dataDirectory: data, now: 1_000)
            }
            #expect(busy?.code == .failedPrecondition)
        }
        let restored = try BrokerStore.restore(from: target, dataDirectory: data, now: 1_000)
        #expect(restored.schemaVersion == BrokerSchema.migrations.latestVersion)
        let aside = try #require(restored.setAsidePath)
        #expect(aside == DataDirectory.databasePath(in: data) + ".before-restore-19700101T001640Z")

        let store = try BrokerStore(dataDirectory: data)
        #expect(try store.listApps().map(\.appID) == ["com.example.a"])
        #expect(store.migration == nil)
        store.close()
        // The replaced database is intact under its new name.
        let old = try Database(path: aside)
        defer { old.close() }
        let statement = try old.prepare("SELECT count(*) FROM apps")
        #expect(try statement.run { statement throws(BrokerError) in try statement.step() ? statement.int64(at: 0) : -1 } == 2)
    }

    @Test func restoreRefusesWhatIsNotABrokerBackupAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.child("data")
        do {
            let store = try BrokerStore(dataDirectory: data)
            defer { store.close() }
            try Self.add(store, "com.example.a")
        }
        let text = directory.child("notes.txt")
        writeFile(text, Array(String(repeating: "not a database\n", count: 100).utf8))
        let foreign = directory.child("foreign.sqlite")
        do {
            let database = try Database(path: foreign)
            try database.execute("CREATE TABLE t (x); PRAGMA user_version = 3;")
            database.close()
        }
        let newer = directory.child("newer.sqlite")
        do {
            let store = try BrokerStore(dataDirectory: directory.child("other"))
            _ = try store.backup(to: newer)
            store.close()
            let database = try Database(path: newer)
            try database.setUserVersion(BrokerSchema.migrations.latestVersion + 1)
            database.close()
        }
        for file in [text, foreign, newer, directory.child("missing.sqlite")] {
            let error = #expect(throws: BrokerError.self) {
                try BrokerStore.restore(from: file, dataDirectory: data, now: 1)
            }
            #expect(error?.code == .failedPrecondition, "\(file)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains("restor") } == [])
        let store = try BrokerStore(dataDirectory: data)
        defer { store.close() }
        #expect(try store.listApps().map(\.appID) == ["com.example.a"])
    }

    @Test func anOlderSchemaIsBackedUpBeforeItMigrates() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            let firstSix = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(6)))
            #expect(try firstSix.apply(to: database) == 6)
            try database.execute("""
                INSERT INTO apps (app_id, name, read_usage, share_usage, pinned_uid, token_hash, created_us, token_rotated_us)
                VALUES ('com.example.steps', 'Steps', '', '', NULL, x'01', 7, 8);
                """)
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        let migration = try #require(store.migration)
        #expect(migration.fromVersion == 6)
        #expect(migration.toVersion == BrokerSchema.migrations.latestVersion)
        #expect(migration.backupPath.hasPrefix(directory.path + "/backups/before-v\(BrokerSchema.migrations.latestVersion)-"))
        #expect(migration.backupPath.hasSuffix("Z.sqlite"))
        #expect(permissionBits(directory.path + "/backups") == 0o700)
        store.close()

        // The backup is the version 6 database, which a restore accepts and the next start migrates again.
        let backup = try Database(path: migration.backupPath)
        #expect(try backup.userVersion() == 6)
        backup.close()
        let restored = try BrokerStore.restore(from: migration.backupPath, dataDirectory: directory.path, now: 5)
        #expect(restored.schemaVersion == 6)
        let reopened = try BrokerStore(dataDirectory: directory.path)
        defer { reopened.close() }
        #expect(reopened.migration?.fromVersion == 6)
        #expect(try reopened.listApps().map(\.appID) == ["com.example.steps"])
    }

    @Test func aNewOrCurrentDatabaseMakesNoBackup() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for _ in 0..<2 {
            let store = try BrokerStore(dataDirectory: directory.path)
            #expect(store.migration == nil)
            store.close()
        }
        #expect(access(directory.path + "/backups", F_OK) != 0)
    }
}
