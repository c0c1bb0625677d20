import BrokerModel
import Foundation
import BrokerPolicy
@testable import BrokerStore
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

    /// The columns of index `name`, in order (`PRAGMA index_info`).
    static func indexColumns(_ database: Database, _ name: String) throws -> [String] {
        let statement = try database.prepare("PRAGMA index_info(\(name))")
        return try statement.run { statement throws(BrokerError) in
            var columns: [String] = []
            while try statement.step() { columns.append(statement.string(at: 2)) }
            return columns
        }
    }

    @Test func releasedStepsAreUnchanged() {
        #expect(BrokerSchema.migrations.steps.count == 15)
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
            "access_log", "app_codes", "app_type_spans", "apps", "broker_meta", "change_sequence", "characteristics",
            "correlation_members", "correlation_prune_marks", "correlation_tombstone_members", "correlations",
            "grants", "hour_rollups", "long_spans", "prune_marks", "samples", "source_priorities", "sources", "tombstones", "type_codes", "type_spans",
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
        let changes = try store.changes(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: "com.example.gone", afterSequence: 1, throughSequence: 5, pageSize: 10)
        #expect(changes.deleted.map(\.uuid) == ["00000000-0000-4000-8000-000000000004"])
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

    @Test func version5SamplesSurviveVersion6AndTheDateIndexesEndWithTheDate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        let uuid = { (n: Int) in "00000000-0000-4000-8000-00000000000\(n)" }
        do {
            let database = try Database(path: path)
            let firstFive = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(5)))
            #expect(try firstFive.apply(to: database) == 5)
            #expect(try Self.indexColumns(database, "samples_by_type_start") == ["type", "start_us", "uuid"])
            // Rows as version 5 stored them: equal dates whose uuids sort against their seqs, an app's
            // own sample ending before a floor of 150, a category sample and a tombstone.
            try database.execute("""
                INSERT INTO type_codes (code, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount'), (2, 'HKCategoryTypeIdentifierSleepAnalysis');
                INSERT INTO app_codes (code, app_id) VALUES (1, 'com.example.a'), (2, 'com.example.b');
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, metadata, app, created_us, content_hash)
                VALUES (1, '\(uuid(9))', 1, 100, 200, 1, 1, 'count', NULL, NULL, 1, 7, x'00'),
                       (2, '\(uuid(8))', 1, 100, 200, 1, 2, 'count', NULL, NULL, 2, 7, x'00'),
                       (3, '\(uuid(7))', 1, 100, 150, 1, 3, 'count', NULL, '{"k":"v"}', 1, 7, x'00'),
                       (5, '\(uuid(5))', 1, 50, 100, 1, 4, 'count', NULL, NULL, 1, 7, x'00'),
                       (6, '\(uuid(6))', 2, 10, 20, 2, NULL, NULL, 3, NULL, 2, 7, x'00');
                INSERT INTO tombstones (seq, uuid, type, start_us, end_us, app, deleted_us)
                VALUES (4, '\(uuid(4))', 1, 0, 1, 2, 6);
                INSERT INTO type_spans (type, max_duration_us)
                VALUES ('HKQuantityTypeIdentifierStepCount', 100), ('HKCategoryTypeIdentifierSleepAnalysis', 10);
                UPDATE change_sequence SET last_seq = 6;
                """)
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        do {
            let database = try Database(path: path)
            defer { database.close() }
            #expect(try database.userVersion() == BrokerSchema.migrations.latestVersion)
            #expect(try Self.indexColumns(database, "samples_by_type_start") == ["type", "start_us"])
            #expect(try Self.indexColumns(database, "samples_by_type_end") == ["type", "end_us"])
            #expect(try Self.indexColumns(database, "samples_by_app_type_start") .prefix(4) == ["app", "type", "start_us", "seq"])  // version 9 adds the columns own reads need
        }
        // Every sample is still there, with its seq and content.
        let exported = try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 10)
        #expect(exported.lastSequence == 6)
        #expect(exported.samples.map(\.uuid) == [9, 8, 7, 5, 6].map(uuid))
        #expect(exported.samples.map(\.value) == [1, 2, 3, 4].map { .quantity(Quantity($0, "count")) } + [.category(3)])
        #expect(exported.samples[2].metadata == ["k": "v"])
        #expect(try Fixture.readAll(store, type: .sleepAnalysis).map(\.uuid) == [uuid(6)])
        // Queries page by (date, seq), one sample a page: equal dates in seq order, not uuid order.
        func read(_ key: SampleSort.Key, descending: Bool = false, scope: ReadScope = .from(.min), appID: String = "com.example.a") throws -> [String] {
            try Fixture.readAll(store, scope: scope, appID: appID, sort: SampleSort(key: key, descending: descending), pageSize: 1).map(\.uuid)
        }
        #expect(try read(.startDate) == [5, 9, 8, 7].map(uuid))
        #expect(try read(.startDate, descending: true) == [7, 8, 9, 5].map(uuid))
        #expect(try read(.endDate) == [5, 7, 9, 8].map(uuid))
        #expect(try read(.endDate, descending: true) == [8, 9, 7, 5].map(uuid))
        // Clamped at 150: app a keeps its own earlier sample (merged in), app b does not see it.
        #expect(try read(.startDate, scope: .from(150)) == [5, 9, 8, 7].map(uuid))
        #expect(try read(.startDate, scope: .from(150), appID: "com.example.b") == [9, 8, 7].map(uuid))
        #expect(try read(.endDate, descending: true, scope: .from(150)) == [8, 9, 7, 5].map(uuid))
        #expect(try read(.startDate, scope: .ownSamplesOnly) == [5, 9, 7].map(uuid))
        // A new save continues the sequence and sorts after the equal dates saved before it.
        let next = Sample(uuid: uuid(1), type: .stepCount, startMicros: 100, endMicros: 200, value: .quantity(Quantity(5, "count")))
        #expect(try store.saveSamples([next], sourceAppID: "com.example.b", now: 9).saved == 1)
        #expect(try store.currentSequence() == 7)
        #expect(try read(.startDate) == [5, 9, 8, 7, 1].map(uuid))
        #expect(try read(.endDate, descending: true) == [1, 8, 9, 7, 5].map(uuid))
    }

    @Test func version10StoresGetAnEmptySourceOrderInVersion11() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            let firstTen = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(10)))
            #expect(try firstTen.apply(to: database) == 10)
            #expect(try !Self.tableNames(database).contains("source_priorities"))
            database.close()
        }
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            defer { store.close() }
            #expect(store.migration?.fromVersion == 10)
            #expect(store.migration?.toVersion == BrokerSchema.migrations.latestVersion)
            #expect(try store.sourcePriority(of: .stepCount) == [])
            try store.setSourcePriority(of: .stepCount, appIDs: ["com.example.watch", "com.example.phone"])
        }
        // The order survives a reopen.
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration == nil)
        #expect(try store.sourcePriority(of: .stepCount) == ["com.example.watch", "com.example.phone"])
    }

    @Test func version9AccessLogRowsSurviveVersion10WithoutAMethod() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            let firstNine = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(9)))
            #expect(try firstNine.apply(to: database) == 9)
            // Rows as version 9 wrote them: one per import chunk, no method.
            try database.execute("""
                INSERT INTO access_log (at_us, app_id, operation, type, sample_count) VALUES
                    (10, 'com.example.a', 'write', 'HKQuantityTypeIdentifierStepCount', 1000),
                    (11, 'com.example.a', 'write', 'HKQuantityTypeIdentifierStepCount', 1000),
                    (12, 'com.example.b', 'read', 'HKQuantityTypeIdentifierHeartRate', 7);
                """)
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration?.fromVersion == 9)
        #expect(store.migration?.toVersion == BrokerSchema.migrations.latestVersion)
        #expect(store.migration.map { FileManager.default.fileExists(atPath: $0.backupPath) } == true)
        #expect(try store.accessLog(appID: nil, limit: 0) == [
            AccessLogEntry(atMicros: 12, appID: "com.example.b", operation: "read", type: .heartRate, sampleCount: 7, method: ""),
            AccessLogEntry(atMicros: 11, appID: "com.example.a", operation: "write", type: .stepCount, sampleCount: 1000, method: ""),
            AccessLogEntry(atMicros: 10, appID: "com.example.a", operation: "write", type: .stepCount, sampleCount: 1000, method: ""),
        ])
        // New rows say their call; an import's chunks add up in one row.
        let step = { (n: Int) in
            Sample(uuid: "00000000-0000-4000-8000-00000000000\(n)", type: .stepCount, startMicros: 100, endMicros: 200,
                   value: .quantity(Quantity(7, "count")))
        }
        for n in 1...2 {
            let request = SaveRequest(samples: [step(n)], sourceAppID: "com.example.a", method: "AdminImport", batchID: "run-1")
            _ = try store.saveSampleGroups([request], now: 20 + Int64(n))[0].get()
        }
        let newest = try #require(try store.accessLog(appID: nil, limit: 1).first)
        #expect(newest == AccessLogEntry(atMicros: 22, appID: "com.example.a", operation: "write", type: .stepCount, sampleCount: 2, method: "AdminImport"))
        #expect(try store.accessLog(appID: nil, limit: 0).count == 4)
    }

    @Test func version6SamplesSurviveVersion7WithAPerAppIdentity() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        let uuid = { (n: Int) in "00000000-0000-4000-8000-00000000000\(n)" }
        let hour: Int64 = 3_600_000_000
        do {
            let database = try Database(path: path)
            let firstSix = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(6)))
            #expect(try firstSix.apply(to: database) == 6)
            // Rows as version 6 stored them: two apps, a three-hour sample, a tombstone, and a
            // store-wide pruning mark at seq 2.
            try database.execute("""
                INSERT INTO type_codes (code, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount');
                INSERT INTO app_codes (code, app_id) VALUES (1, 'com.example.a'), (2, 'com.example.b');
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, metadata, app, created_us)
                VALUES (3, stored_uuid('\(uuid(3))'), 1, 100, 200, 1, 7, 'count', '{"k":"v"}', 1, 9),
                       (4, stored_uuid('\(uuid(4))'), 1, 0, \(3 * hour), 1, 8, 'count', NULL, 2, 9);
                INSERT INTO tombstones (seq, uuid, type, start_us, end_us, app, deleted_us)
                VALUES (5, stored_uuid('\(uuid(5))'), 1, 10, 20, 1, 9);
                INSERT INTO type_spans (type, max_duration_us) VALUES ('HKQuantityTypeIdentifierStepCount', \(3 * hour));
                UPDATE change_sequence SET last_seq = 5, pruned_through_seq = 2;
                """)
            database.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        // Every sample kept its seq, content and source.
        let exported = try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 10)
        #expect(exported.lastSequence == 4)
        #expect(exported.samples.map(\.uuid) == [uuid(3), uuid(4)])
        #expect(exported.samples.map(\.sourceAppID) == ["com.example.a", "com.example.b"])
        #expect(exported.samples[0].metadata == ["k": "v"])
        // The spans were rebuilt per app: a's own read is bounded by its own 100 µs sample.
        #expect(try Fixture.readAll(store, scope: .ownSamplesOnly, appID: "com.example.a").map(\.uuid) == [uuid(3)])
        #expect(try Fixture.readAll(store, scope: .from(2 * hour), appID: "com.example.a").map(\.uuid) == [uuid(4), uuid(3)])  // b's straddles the floor
        // The old store-wide pruning mark still expires anchors below it, for every reader.
        #expect(try store.prunedVisibleSequence(type: .stepCount, scope: .ownSamplesOnly, appID: "com.example.a") == 2)
        #expect(try store.prunedVisibleSequence(type: .stepCount, scope: .from(.min), appID: "com.example.b") == 2)
        // The tombstone is still a deletion for its app.
        let changes = try store.changes(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: "com.example.a",
                                        afterSequence: 4, throughSequence: 5, pageSize: 10)
        #expect(changes.deleted == [ChangePage.Deletion(uuid: uuid(5), sourceAppID: "com.example.a")])
        // Identity is now (app, uuid): b saves a's uuid as its own sample; a's retry is unchanged.
        let same = Sample(uuid: uuid(3), type: .stepCount, startMicros: 100, endMicros: 200, value: .quantity(Quantity(7, "count")), metadata: ["k": "v"])
        #expect(try store.saveSamples([same], sourceAppID: "com.example.b", now: 10).saved == 1)
        #expect(try store.saveSamples([same], sourceAppID: "com.example.a", now: 10).unchanged == 1)
        #expect(try store.currentSequence() == 6)
    }

    /// `identifier` with each K spelled as U+212A KELVIN SIGN: `String` equality treats it as the
    /// same identifier, SQLite as other bytes.
    static func kelvin(_ type: ObjectType) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in type.identifier.unicodeScalars { scalars.append(scalar == "K" ? "\u{212A}" : scalar) }
        return String(scalars)
    }

    /// Each row of `sql`'s first column as UTF-8 bytes turned into text again (so spellings stay apart).
    static func texts(_ database: Database, _ sql: String) throws -> [[UInt8]] {
        let statement = try database.prepare(sql)
        return try statement.run { statement throws(BrokerError) in
            var rows: [[UInt8]] = []
            while try statement.step() { rows.append(Array(statement.string(at: 0).utf8)) }
            return rows
        }
    }

    @Test func version7OddSpellingsAreMergedIntoTheCataloguedOnesInVersion8() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        let oddSteps = Self.kelvin(.stepCount)
        let oddHeart = Self.kelvin(.heartRate)
        let oddMass = Self.kelvin(.bodyMass)
        let oddBlood = Self.kelvin(.bloodType)
        let uuid = { (n: Int) in "00000000-0000-4000-8000-00000000000\(n)" }
        let hour: Int64 = 3_600_000_000
        do {
            let database = try Database(path: path)
            let firstSeven = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(7)))
            #expect(try firstSeven.apply(to: database) == 7)
            // What a version 7 broker could store after apps sent odd spellings: stepCount under two
            // codes, heartRate only under an odd one, and grants, spans, a characteristic and an
            // access-log row under both spellings.
            try database.execute("""
                INSERT INTO type_codes (code, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount'), (2, '\(oddSteps)'), (3, '\(oddHeart)');
                INSERT INTO app_codes (code, app_id) VALUES (1, 'com.example.a');
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, metadata, app, created_us)
                VALUES (3, stored_uuid('\(uuid(3))'), 1, 100, 200, 1, 7, 'count', NULL, 1, 9),
                       (4, stored_uuid('\(uuid(4))'), 2, \(9 * hour), \(10 * hour), 1, 8, 'count', NULL, 1, 9),
                       (5, stored_uuid('\(uuid(5))'), 3, 100, 200, 1, 60, 'count/min', NULL, 1, 9);
                INSERT INTO tombstones (seq, uuid, type, start_us, end_us, app, deleted_us)
                VALUES (6, stored_uuid('\(uuid(6))'), 2, 10, 20, 1, 9);
                UPDATE change_sequence SET last_seq = 6;
                INSERT INTO app_type_spans (app, type, max_duration_us) VALUES (1, 1, 100), (1, 2, \(hour)), (1, 3, 100);
                -- The odd code's long sample dominates the catalogued code's: one frontier point remains.
                INSERT INTO long_spans (type, end_us, duration_us) VALUES (1, \(5 * hour), \(hour / 3)), (2, \(10 * hour), \(hour));
                INSERT INTO prune_marks (type, app, end_us, seq) VALUES (1, 1, 50, 2), (2, 1, 50, 4), (2, 1, 70, 1);
                INSERT INTO type_spans (type, max_duration_us) VALUES ('HKQuantityTypeIdentifierStepCount', 100), ('\(oddSteps)', \(hour));
                INSERT INTO grants (app_id, type, share, read, read_from_us, decided_us, decided_by) VALUES
                    ('com.example.a', 'HKQuantityTypeIdentifierStepCount', 2, NULL, NULL, 10, 'agent'),
                    ('com.example.a', '\(oddSteps)', 1, 1, NULL, 20, 'agent'),
                    ('com.example.a', '\(oddHeart)', NULL, 2, NULL, 5, 'agent'),
                    ('com.example.b', 'HKQuantityTypeIdentifierBodyMass', 1, NULL, NULL, 30, 'agent'),
                    ('com.example.b', '\(oddMass)', 2, NULL, NULL, 10, 'agent'),
                    ('com.example.c', 'HKQuantityTypeIdentifierStepCount', 2, NULL, NULL, 7, 'agent'),
                    ('com.example.c', '\(oddSteps)', 1, NULL, NULL, 7, 'policy');
                INSERT INTO characteristics (type, value, updated_us) VALUES
                    ('HKCharacteristicTypeIdentifierBloodType', 'A+', 1), ('\(oddBlood)', 'B+', 2);
                INSERT INTO access_log (at_us, app_id, operation, type, sample_count) VALUES (1, 'com.example.a', 'query', '\(oddSteps)', 3);
                """)
            database.close()
        }

        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        // Grants: one row per (app, type), the most recent decision, the catalogue's spelling; a
        // tie keeps the row that was already spelled as catalogued.
        #expect(try store.allGrants() == [
            "com.example.a": [
                Grant(type: .heartRate, read: .full, decidedMicros: 5, decidedBy: "agent"),
                Grant(type: .stepCount, share: .deny, read: .deny, decidedMicros: 20, decidedBy: "agent"),
            ],
            "com.example.b": [Grant(type: .bodyMass, share: .deny, decidedMicros: 30, decidedBy: "agent")],
            "com.example.c": [Grant(type: .stepCount, share: .allow, decidedMicros: 7, decidedBy: "agent")],
        ])
        // A revocation by the catalogued type now reaches the row (it missed the odd one before).
        #expect(try store.revokeGrants(appID: "com.example.a", types: [.stepCount]) == 1)
        #expect(try store.allCharacteristics() == [.bloodType: "B+"])
        // Samples and tombstones of both codes are read under the catalogued type, seqs unchanged.
        #expect(try store.exportPage(type: .stepCount, appID: nil, afterSequence: 0, pageSize: 10).samples.map(\.uuid) == [uuid(3), uuid(4)])
        #expect(try store.exportPage(type: .heartRate, appID: nil, afterSequence: 0, pageSize: 10).samples.map(\.uuid) == [uuid(5)])
        let changes = try store.changes(type: .stepCount, predicate: .all, scope: .ownSamplesOnly, appID: "com.example.a",
                                        afterSequence: 5, throughSequence: 6, pageSize: 10)
        #expect(changes.deleted == [ChangePage.Deletion(uuid: uuid(6), sourceAppID: "com.example.a")])
        #expect(try store.prunedVisibleSequence(type: .stepCount, scope: .ownSamplesOnly, appID: "com.example.a") == 4)
        // The odd code's long sample still bounds a limited read: it straddles a floor at 9.5 h.
        #expect(try Fixture.readAll(store, type: .stepCount, scope: .from(9 * hour + hour / 2), appID: "com.example.b").map(\.uuid) == [uuid(4)])
        #expect(try store.accessLog(appID: nil, limit: 10).map { Array($0.type.identifier.utf8) } == [Array(ObjectType.stepCount.identifier.utf8)])

        // On disk nothing is left in another spelling, and the merged tables hold what they should.
        let database = try Database(path: path)
        defer { database.close() }
        let catalogued = { (type: ObjectType) in Array(type.identifier.utf8) }
        #expect(try Self.texts(database, "SELECT identifier FROM type_codes WHERE code <= 3 ORDER BY code") == [catalogued(.stepCount)])
        #expect(try Self.texts(database, "SELECT type FROM grants ORDER BY app_id, type") ==
                [catalogued(.heartRate), catalogued(.bodyMass), catalogued(.stepCount)])
        #expect(try Self.texts(database, "SELECT type FROM characteristics") == [catalogued(.bloodType)])
        #expect(try Self.texts(database, "SELECT type || ' ' || max_duration_us FROM type_spans") == [Array("HKQuantityTypeIdentifierStepCount \(hour)".utf8)])
        #expect(try Self.texts(database, "SELECT type FROM access_log") == [catalogued(.stepCount)])
        #expect(try Self.texts(database, "SELECT DISTINCT t.identifier FROM samples AS s JOIN type_codes AS t ON t.code = s.type ORDER BY 1") ==
                [catalogued(.heartRate), catalogued(.stepCount)])
        #expect(try Self.texts(database, "SELECT t.identifier || ' ' || s.max_duration_us FROM app_type_spans AS s JOIN type_codes AS t ON t.code = s.type ORDER BY 1") ==
                [Array("HKQuantityTypeIdentifierHeartRate 100".utf8), Array("HKQuantityTypeIdentifierStepCount \(hour)".utf8)])
        #expect(try Self.texts(database, "SELECT end_us || ' ' || duration_us FROM long_spans") == [Array("\(10 * hour) \(hour)".utf8)])
        #expect(try Self.texts(database, "SELECT end_us || ' ' || seq FROM prune_marks ORDER BY end_us") == [Array("50 4".utf8), Array("70 1".utf8)])
        #expect(try Self.texts(database, "SELECT count(*) FROM sqlite_temp_master") == [Array("0".utf8)])
    }

    @Test func version12SamplesGetHourRollupsInVersion13() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let hour: Int64 = 3_600_000_000
        // Saved by a version 12 store: two apps, steps across an hour and before 1970, heart rate, a sleep sample.
        do {
            let database = try Database(path: try DataDirectory.prepare(directory.path))
            let firstTwelve = Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(12)))
            #expect(try firstTwelve.apply(to: database) == 12)
            database.close()
        }
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            _ = try store.saveSamples([
                Fixture.steps(1, 10 * hour, 10 * hour + 60_000_000, count: 5), Fixture.steps(2, 10 * hour + 59 * 60_000_000, 11 * hour + 1, count: 7),
                Fixture.steps(3, -1, 0, count: 2), Fixture.steps(4, -hour, -hour, count: 3),
            ], sourceAppID: "com.example.a", now: 1)
            _ = try store.saveSamples([Fixture.steps(5, 10 * hour + 5, 10 * hour + 6, count: 11)], sourceAppID: "com.example.b", now: 1)
            // As a version 12 store left it: no rollups (nor version 14's correlation positions, nor version 15's object counts).
            try store.database.execute("DROP TABLE hour_rollups")
            try store.database.execute("ALTER TABLE correlations DROP COLUMN object_count")
            try store.database.execute("ALTER TABLE correlations DROP COLUMN change_seq")
            try store.database.execute("DROP TABLE correlation_tombstone_members")
            try store.database.execute("DROP TABLE correlation_prune_marks")
            try store.database.setUserVersion(12)
            store.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(store.migration?.fromVersion == 12)
        let a = try #require(try store.sampleTable.apps.code(of: "com.example.a"))
        let b = try #require(try store.sampleTable.apps.code(of: "com.example.b"))
        let steps = try #require(try store.sampleTable.types.code(of: ObjectType.stepCount.identifier))
        let rows = try store.sampleTable.rollups.rows(typeCode: steps, appCode: nil, hours: Int64.min...Int64.max)
        #expect(rows.map { [$0.hour, $0.app, $0.count] } == [[-1, a, 2], [10, a, 2], [10, b, 1]])
        #expect(rows.map(\.total) == [5, 12, 11] && rows.map(\.lowest) == [2, 5, 11] && rows.map(\.highest) == [3, 7, 11])
        #expect(rows.map(\.maxEnd) == [0, 11 * hour + 1, 10 * hour + 6] && rows.map(\.covered) == [1, 2 * 60_000_000, 1])
        // Statistics read them and agree with the samples.
        let boundaries = [-2 * hour, 0, 24 * hour]
        let rolled = try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries)
        store.sampleTable.readsRollups = false
        #expect(try store.allSourcesStatistics(type: .stepCount, predicate: .all, boundaries: boundaries) == rolled)
        #expect(rolled.map(\.sum) == [5, 23])
    }
}
