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
        #expect(BrokerSchema.migrations.steps.count == 5)
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
            "access_log", "app_codes", "apps", "broker_meta", "change_sequence", "characteristics", "grants",
            "samples", "sources", "tombstones", "type_codes", "type_spans",
        ])
    }

    @Test func version3SamplesKeepTheirSeqAndContentInVersion4() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            let firstThree = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(3)))
            #expect(try firstThree.apply(to: database) == 3)
            // Two apps, two types, one sample with metadata: rows as version 3 stored them.
            try database.execute("""
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, metadata, source_app_id, created_us, content_hash)
                VALUES (3, '00000000-0000-4000-8000-000000000003', 'HKQuantityTypeIdentifierStepCount', 10, 20, 1, 5, 'count', '{}', 'com.example.b', 7, x'00'),
                       (5, '00000000-0000-4000-8000-000000000005', 'HKQuantityTypeIdentifierHeartRate', 30, 30, 1, 61, 'count/min', '{"k":"v"}', 'com.example.a', 8, x'00');
                INSERT INTO tombstones (seq, uuid, type, start_us, end_us, source_app_id, deleted_us)
                VALUES (4, '00000000-0000-4000-8000-000000000004', 'HKQuantityTypeIdentifierStepCount', 0, 1, 'com.example.gone', 6);
                UPDATE change_sequence SET last_seq = 5;
                """)
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        let exported = try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 10)
        #expect(exported.lastSequence == 5)
        #expect(exported.samples.map(\.uuid) == ["00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000005"])
        #expect(exported.samples.map(\.type) == [.stepCount, .heartRate])
        #expect(exported.samples.map(\.sourceAppID) == ["com.example.b", "com.example.a"])
        #expect(exported.samples.map(\.metadata) == [[:], ["k": "v"]])
        #expect(exported.samples.map(\.value) == [.quantity(Quantity(5, "count")), .quantity(Quantity(61, "count/min"))])
        #expect(try store.exportPage(type: .heartRate, appID: "com.example.a", afterSequence: 0, pageSize: 10).samples.count == 1)
        #expect(try store.exportPage(type: .heartRate, appID: "com.example.b", afterSequence: 0, pageSize: 10).samples.isEmpty)
        // The tombstone of an app that has no samples left still reads as a deletion, as its own or clamped by date.
        let changes = try store.changes(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: "com.example.gone", afterSequence: 0, throughSequence: 5, pageSize: 10)
        #expect(changes.deleted == ["00000000-0000-4000-8000-000000000004"])
        #expect(changes.added.isEmpty)
        let clamped = try store.changes(type: .stepCount, predicate: .all, scope: .from(2), appID: "com.example.b", afterSequence: 0, throughSequence: 5, pageSize: 10)
        #expect(clamped.deleted.isEmpty)
        #expect(clamped.added.map(\.uuid) == ["00000000-0000-4000-8000-000000000003"])
        // New saves continue the sequence and reuse the migrated codes.
        let next = Sample(uuid: "00000000-0000-4000-8000-000000000009", type: .stepCount, startMicros: 40, endMicros: 50, value: .quantity(Quantity(1, "count")))
        #expect(try store.saveSamples([next], sourceAppID: "com.example.b", now: 9).saved == 1)
        #expect(try store.currentSequence() == 6)
        #expect(try store.exportPage(type: .stepCount, appID: "com.example.b", afterSequence: 0, pageSize: 10).samples.count == 2)
    }
}
