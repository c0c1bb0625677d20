import BrokerModel
import Testing
@testable import BrokerStore

/// `samples.uuid`: a canonical UUID stored as 16 bytes, any other value as its text.
@Suite("Stored uuids")
struct StoredUUIDTests {
    private typealias F = Fixture

    /// The storage class SQLite reports for each stored uuid, by seq.
    private static func storageClasses(_ store: BrokerStore) throws -> [String] {
        let database = try Database(path: store.databasePath)
        defer { database.close() }
        let statement = try database.prepare("SELECT typeof(uuid) FROM samples ORDER BY seq")
        return try statement.run { statement throws(BrokerError) in
            var classes: [String] = []
            while try statement.step() { classes.append(statement.string(at: 0)) }
            return classes
        }
    }

    @Test func canonicalUUIDsRoundTripThroughTheirSixteenBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef")
        var texts = ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", F.uuid(42)]
        for _ in 0..<200 {
            let digits = (0..<32).map { _ in hex[Int(generator.next() % 16)] }
            var text = String(digits)
            for offset in [8, 13, 18, 23] { text.insert("-", at: text.index(text.startIndex, offsetBy: offset)) }
            texts.append(text)
        }
        for text in texts {
            let words = try #require(StoredUUID.words(text), "\(text)")
            #expect(StoredUUID.withBytes(of: words) { StoredUUID.text(bytes: $0) } == text)
        }
        #expect(StoredUUID.words("00000000-0000-4000-8000-000000000001").map { [$0.0, $0.1] } == [0x0000_0000_0000_4000, 0x8000_0000_0000_0001])
    }

    @Test func anythingButACanonicalUUIDIsNotConverted() {
        for text in [
            "", "not-a-uuid", "00000000-0000-4000-8000-00000000000", "00000000-0000-4000-8000-0000000000001",
            "00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000_000000000001", "000000000-000-4000-8000-000000000001",
            "00000000-0000-4000-8000-00000000000g",
        ] {
            #expect(StoredUUID.words(text) == nil, "\(text)")
        }
    }

    @Test func aStoreKeepsCanonicalUUIDsAsBytesAndOtherValuesAsTextAndFindsBoth() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        var canonical = F.steps(1, F.base, F.base + F.minute)
        canonical.uuid = "0000000a-0000-4000-8000-00000000000b"
        var odd = F.steps(2, F.base + F.minute, F.base + 2 * F.minute)
        odd.uuid = "ABC-not-canonical"
        let batch = [canonical, odd]
        #expect(try store.saveSamples(batch, sourceAppID: F.app, now: 5).saved == 2)
        #expect(try Self.storageClasses(store) == ["blob", "text"])
        #expect(try F.readAll(store) == batch.map { F.stored($0, by: F.app, at: 5) })

        // A retry finds both stored rows and compares contents: unchanged, or a conflict when different.
        let retry = try store.saveSamples(batch, sourceAppID: F.app, now: 6)
        #expect((retry.saved, retry.unchanged) == (0, 2))
        for index in batch.indices {
            var changed = batch[index]
            changed.value = .quantity(Quantity(99, "count"))
            #expect(throws: BrokerError.self) { try store.saveSamples([changed], sourceAppID: F.app, now: 7) }
        }
        #expect(try F.readAll(store).map(\.value) == batch.map(\.value))

        // Deleting by uuid finds each; an uppercase spelling of the canonical one is another value.
        #expect(try store.deleteSamples(uuids: [canonical.uuid.uppercased()], appID: F.app, now: 8).isEmpty)
        #expect(try store.deleteSamples(uuids: [canonical.uuid, odd.uuid], appID: F.app, now: 8).map(\.uuid) == [canonical.uuid, odd.uuid])
        #expect(try F.readAll(store).isEmpty)
    }

    @Test func version6ConvertsStoredUUIDsAndKeepsOtherValuesAsText() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: path)
            defer { database.close() }
            #expect(try Migrations(steps: Array(BrokerSchema.migrations.steps.prefix(5))).apply(to: database) == 5)
            try database.execute("""
                INSERT INTO type_codes (code, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount');
                INSERT INTO app_codes (code, app_id) VALUES (1, '\(F.app)');
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, app, created_us, content_hash)
                VALUES (1, '\(F.uuid(1))', 1, 100, 200, 1, 1, 'count', 1, 7, x'00'),
                       (2, 'legacy uuid', 1, 200, 300, 1, 2, 'count', 1, 7, x'00');
                UPDATE change_sequence SET last_seq = 2;
                """)
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(try Self.storageClasses(store) == ["blob", "text"])
        do {
            let database = try Database(path: path)
            defer { database.close() }
            let columns = try database.prepare("SELECT name FROM pragma_table_info('samples')").run { statement throws(BrokerError) in
                var names: [String] = []
                while try statement.step() { names.append(statement.string(at: 0)) }
                return names
            }
            #expect(!columns.contains("content_hash"))
            #expect(columns.contains("uuid"))
        }
        #expect(try F.readAll(store).map(\.uuid) == [F.uuid(1), "legacy uuid"])
        let same = Sample(uuid: F.uuid(1), type: .stepCount, startMicros: 100, endMicros: 200, value: .quantity(Quantity(1, "count")))
        #expect(try store.saveSamples([same], sourceAppID: F.app, now: 9).unchanged == 1)
        #expect(try store.deleteSamples(uuids: ["legacy uuid"], appID: F.app, now: 9).map(\.uuid) == ["legacy uuid"])
        #expect(try F.readAll(store).map(\.uuid) == [F.uuid(1)])
    }
}
