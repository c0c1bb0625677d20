import BrokerCore
import BrokerStore
import Testing

@Suite("Schema upgrades")
struct SchemaUpgradeTests {
    /// Version 1 exactly as released; a change here or in `BrokerSchema` means a released step was edited.
    static let releasedVersion1 = """
        CREATE TABLE apps (
            app_id TEXT NOT NULL PRIMARY KEY,
            name TEXT NOT NULL,
            read_usage TEXT NOT NULL,
            share_usage TEXT NOT NULL,
            pinned_uid INTEGER NULL,
            token_hash BLOB NOT NULL,
            created_us INTEGER NOT NULL,
            token_rotated_us INTEGER NOT NULL
        );
        CREATE TABLE broker_meta (
            key TEXT NOT NULL PRIMARY KEY,
            value BLOB
        );
        """

    /// The names of the database's tables, sorted.
    static func tableNames(_ database: Database) throws -> [String] {
        let statement = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return try statement.run { statement throws(BrokerError) in
            var names: [String] = []
            while try statement.step() { names.append(statement.string(at: 0)) }
            return names
        }
    }

    @Test func releasedStepsAreUnchanged() {
        #expect(BrokerSchema.migrations.steps.count == 3)
        #expect(BrokerSchema.migrations.steps.first == Self.releasedVersion1)
    }

    @Test func version1DatabaseUpgradesInPlace() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            #expect(try Migrations(steps: [Self.releasedVersion1]).apply(to: database) == 1)
            try database.execute("""
                INSERT INTO apps (app_id, name, read_usage, share_usage, pinned_uid, token_hash, created_us, token_rotated_us)
                VALUES ('com.example.steps', 'Steps', 'reads', 'writes', 1000, x'0102', 7, 8);
                INSERT INTO broker_meta (key, value) VALUES ('anchor_mac_key', x'ff');
                """)
            #expect(try database.userVersion() == 1)
            #expect(try Self.tableNames(database) == ["apps", "broker_meta"])
            database.close()
        }

        let store = try BrokerStore(dataDirectory: directory.path)
        let app = try #require(try store.app("com.example.steps"))
        #expect(app.info == AppInfo(
            appID: "com.example.steps", name: "Steps", readUsage: "reads", shareUsage: "writes",
            pinnedUID: 1000, createdMicros: 7, tokenRotatedMicros: 8))
        #expect(app.tokenHash == [1, 2])
        #expect(try store.metaValue("anchor_mac_key") == [0xff])

        // The new tables work.
        let grant = Grant(type: .stepCount, share: .allow, read: .limited(fromMicros: -1), decidedMicros: 9, decidedBy: "agent")
        try store.recordGrants(appID: "com.example.steps", grants: [grant])
        try store.recordRequest(appID: "com.example.steps", appName: "Steps", now: 9)
        try store.setCharacteristic(.bloodType, value: "A+", now: 9)
        #expect(try store.allGrants() == ["com.example.steps": [grant]])
        #expect(try store.listSources().map(\.isRegistered) == [true])
        #expect(try store.allCharacteristics() == [.bloodType: "A+"])
        store.close()

        let database = try Database(path: path)
        defer { database.close() }
        #expect(try database.userVersion() == BrokerSchema.migrations.latestVersion)
        #expect(try Self.tableNames(database) == [
            "access_log", "apps", "broker_meta", "change_sequence", "characteristics", "grants", "samples",
            "sources", "tombstones", "type_spans",
        ])
    }
}
